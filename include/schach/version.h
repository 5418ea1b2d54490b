/** @file
 * libschach: the version of the headers (macros) and of the library a program runs with (functions).
 *
 * libschach follows semantic versioning: within one major version a program built against an older
 * minor version runs with any newer one (the soname is libschach.so.1 for every 1.x), and nothing
 * public is removed or changed in meaning. docs/library/CHANGES.md lists what each version changed.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_VERSION_H
#define SCH_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define SCH_VERSION_MAJOR 1 /**< incompatible changes */
#define SCH_VERSION_MINOR 0 /**< additions that keep compatibility */
#define SCH_VERSION_PATCH 0 /**< fixes */
/** "1.0.0" */
#define SCH_VERSION_STRING "1.0.0"
/** One number that compares like the version: major * 10000 + minor * 100 + patch (10000 for 1.0.0). */
#define SCH_VERSION_NUMBER (SCH_VERSION_MAJOR * 10000 + SCH_VERSION_MINOR * 100 + SCH_VERSION_PATCH)

/** The version of the library in use, which may be newer than the headers a program was built with:
 * "1.0.0". Never NULL. */
const char *sch_version(void);
/** The same as one number, like SCH_VERSION_NUMBER. */
int sch_version_number(void);

#ifdef __cplusplus
}
#endif

#endif
