# The browser UI as schach serve sends it: scripts/web-bundle bundles web/ with esbuild (Debian's
# package) into BUILD/web, one minified script and one stylesheet with their source maps, and the
# built schach serves that folder unless --web names another (`--web web` serves the sources as they
# are, module by module). SCHACH_WEB_BUNDLE=OFF leaves esbuild out and serves web/ itself.
option(SCHACH_WEB_BUNDLE "Bundle the browser UI with esbuild into the build folder and serve that" ON)
if(SCHACH_WEB_BUNDLE)
  find_program(SCHACH_ESBUILD esbuild)
  if(NOT SCHACH_ESBUILD)
    message(FATAL_ERROR "esbuild not found: apt-get install esbuild (scripts/install-deps installs it), "
                        "or configure with -DSCHACH_WEB_BUNDLE=OFF to serve web/ unbundled")
  endif()
  set(SCHACH_WEB_ROOT ${CMAKE_CURRENT_BINARY_DIR}/web)
  file(GLOB SCHACH_WEB_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/web/*.js ${CMAKE_CURRENT_SOURCE_DIR}/web/*.css
       ${CMAKE_CURRENT_SOURCE_DIR}/web/*.html ${CMAKE_CURRENT_SOURCE_DIR}/web/*.svg ${CMAKE_CURRENT_SOURCE_DIR}/web/*.ico)
  add_custom_command(
    OUTPUT ${SCHACH_WEB_ROOT}/index.html ${SCHACH_WEB_ROOT}/app.js ${SCHACH_WEB_ROOT}/app.js.map
           ${SCHACH_WEB_ROOT}/app.css ${SCHACH_WEB_ROOT}/app.css.map
    COMMAND ${CMAKE_COMMAND} -E env ESBUILD=${SCHACH_ESBUILD}
            bash ${CMAKE_CURRENT_SOURCE_DIR}/scripts/web-bundle ${CMAKE_CURRENT_SOURCE_DIR}/web ${SCHACH_WEB_ROOT}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/scripts/web-bundle ${SCHACH_WEB_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/web/package-lock.json
    COMMENT "Bundling the browser UI with esbuild into ${SCHACH_WEB_ROOT}"
    VERBATIM)
  add_custom_target(web_bundle ALL DEPENDS ${SCHACH_WEB_ROOT}/index.html)
else()
  set(SCHACH_WEB_ROOT ${CMAKE_CURRENT_SOURCE_DIR}/web)
endif()
