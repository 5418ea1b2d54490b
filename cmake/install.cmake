# make install: libschach (shared with SONAME libschach.so.MAJOR, and static), its public headers,
# schach.pc for pkg-config and a CMake package (find_package(schach), target schach::schach).
# Everything is relocatable: schach.pc finds its prefix from its own folder (${pcfiledir}) and the
# CMake package from its own, so `cmake --install --prefix P` and DESTDIR=... both give working files.
include(CMakePackageConfigHelpers)

set(SCHACH_INSTALL_TARGETS schach_lib)
if(SCHACH_SHARED)
  list(APPEND SCHACH_INSTALL_TARGETS schach_shared)
endif()
install(TARGETS ${SCHACH_INSTALL_TARGETS} EXPORT schachTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library NAMELINK_COMPONENT library
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Only the public headers: the internal ones live under src/ and are never installed.
file(GLOB SCHACH_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/include/schach/*.h)
install(FILES ${SCHACH_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/schach COMPONENT library)

# pkg-config: the paths relative to the .pc file's folder.
set(SCHACH_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH SCHACH_PC_TO_PREFIX /${SCHACH_PC_DIR} /)
string(REGEX REPLACE "/$" "" SCHACH_PC_TO_PREFIX "${SCHACH_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/schach.pc.in ${CMAKE_CURRENT_BINARY_DIR}/schach.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/schach.pc DESTINATION ${SCHACH_PC_DIR} COMPONENT library)

set(SCHACH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/schach)
install(EXPORT schachTargets NAMESPACE schach:: DESTINATION ${SCHACH_CMAKE_DIR} COMPONENT library)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/schachConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/schachConfig.cmake INSTALL_DESTINATION ${SCHACH_CMAKE_DIR})
# Semantic versioning from 1.0 on: every 1.x serves a program that asked for 1.0 (or any older 1.y).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/schachConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/schachConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/schachConfigVersion.cmake
        DESTINATION ${SCHACH_CMAKE_DIR} COMPONENT library)

# make uninstall: removes what the last install wrote (cmake --install --component library lists it
# in install_manifest_library.txt in the build folder).
add_custom_target(uninstall COMMAND ${CMAKE_COMMAND} -DMANIFEST=${CMAKE_CURRENT_BINARY_DIR}/install_manifest_library.txt
                  -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/uninstall.cmake)
