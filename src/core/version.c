/* The library's version at run time, from the headers it was built with. */
#include "schach/version.h"

const char *sch_version(void) { return SCH_VERSION_STRING; }

int sch_version_number(void) { return SCH_VERSION_NUMBER; }
