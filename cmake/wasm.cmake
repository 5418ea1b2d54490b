# libschach and the engine as WebAssembly (docs/wasm.md): the same sources compiled by clang for
# wasm32-wasi against Debian's wasi-libc and linked by wasm-ld into one schach.wasm that exports only
# the functions of src/wasm/wasm_api.h. One thread: src/engine/pool_single.c instead of pool.c, and
# src/wasm/compat/pthread.h for the few pthread calls of the library. Built as part of `make` when the
# tools are there (scripts/install-deps installs clang, wasi-libc, libclang-rt-14-dev-wasm32 and
# lld); without them configure says so and leaves it out, and the tests that need it are not added.
#
# The module goes to BUILD/wasm/schach.wasm and, with the bundled web UI, beside the JavaScript of
# web/wasm/ into BUILD/web/wasm/, which schach serve sends as /wasm/... (application/wasm).
option(SCHACH_WASM "Build schach.wasm (libschach and the engine as WebAssembly) when the tools are there" ON)
set(SCHACH_WASM_FLAGS "-O3;-flto;-msimd128" CACHE STRING "Optimisation flags of the WebAssembly build (measured in docs/wasm.md)")
set(SCHACH_WASM_BUILT OFF)
if(SCHACH_WASM)
  find_program(SCHACH_WASM_CLANG NAMES clang clang-14)
  find_program(SCHACH_WASM_LD NAMES wasm-ld wasm-ld-14)
  set(SCHACH_WASI_SYSROOT "/usr" CACHE PATH "The wasi-libc sysroot (include/wasm32-wasi, lib/wasm32-wasi)")
  set(SCHACH_WASM_WHY "")
  if(NOT SCHACH_WASM_CLANG)
    set(SCHACH_WASM_WHY "clang not found")
  elseif(NOT SCHACH_WASM_LD)
    set(SCHACH_WASM_WHY "wasm-ld not found (apt-get install lld)")
  elseif(NOT EXISTS ${SCHACH_WASI_SYSROOT}/lib/wasm32-wasi/libc.a)
    set(SCHACH_WASM_WHY "wasi-libc not found in ${SCHACH_WASI_SYSROOT} (apt-get install wasi-libc)")
  else()
    # The compiler's runtime for wasm32 (libclang-rt-14-dev-wasm32) is needed to link: try it.
    set(_probe ${CMAKE_CURRENT_BINARY_DIR}/wasm/probe)
    file(MAKE_DIRECTORY ${_probe})
    file(WRITE ${_probe}/probe.c "int probe(int x);\nint probe(int x) { return x * 2; }\n")
    execute_process(
      COMMAND ${SCHACH_WASM_CLANG} --target=wasm32-wasi --sysroot=${SCHACH_WASI_SYSROOT} -O2 -mexec-model=reactor
              -o ${_probe}/probe.wasm ${_probe}/probe.c
      RESULT_VARIABLE _probe_rc OUTPUT_VARIABLE _probe_out ERROR_VARIABLE _probe_out)
    if(NOT _probe_rc EQUAL 0)
      string(STRIP "${_probe_out}" _probe_out)
      set(SCHACH_WASM_WHY "clang cannot link for wasm32-wasi (apt-get install libclang-rt-14-dev-wasm32): ${_probe_out}")
    endif()
  endif()
  if(SCHACH_WASM_WHY)
    message(STATUS "schach.wasm: not built: ${SCHACH_WASM_WHY}; scripts/install-deps installs the tools")
  else()
    set(SCHACH_WASM_BUILT ON)
    message(STATUS "schach.wasm: built with ${SCHACH_WASM_CLANG} for wasm32-wasi (${SCHACH_WASM_FLAGS})")
  endif()
endif()

if(SCHACH_WASM_BUILT)
  file(GLOB SCHACH_WASM_SOURCES CONFIGURE_DEPENDS src/util/*.c src/core/*.c src/notation/*.c src/game/*.c src/pgn/*.c
       src/messages/*.c src/engine/*.c src/wasm/*.c)
  # Not for one thread or not for the browser: the CPU dispatch, the threaded pool and UCI.
  list(FILTER SCHACH_WASM_SOURCES EXCLUDE REGEX "/(core/dispatch|engine/search_dispatch|engine/pool|engine/uci[a-z_]*)\\.c$")
  list(APPEND SCHACH_WASM_SOURCES ${SCHACH_NET_SOURCE}) # the built-in net (CMakeLists.txt)
  file(GLOB_RECURSE SCHACH_WASM_HEADERS CONFIGURE_DEPENDS include/schach/*.h src/*.h src/*.inc)
  set(SCHACH_WASM_OUT ${CMAKE_CURRENT_BINARY_DIR}/wasm/schach.wasm)
  add_custom_command(
    OUTPUT ${SCHACH_WASM_OUT}
    COMMAND ${SCHACH_WASM_CLANG} --target=wasm32-wasi --sysroot=${SCHACH_WASI_SYSROOT} -std=c17 ${SCHACH_WASM_FLAGS} -DNDEBUG
            -Wall -Wextra -Wpedantic $<$<BOOL:${SCHACH_WERROR}>:-Werror>
            -I${CMAKE_CURRENT_SOURCE_DIR}/include -I${CMAKE_CURRENT_SOURCE_DIR}/src -I${CMAKE_CURRENT_SOURCE_DIR}/src/engine
            -I${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/compat -I${CMAKE_CURRENT_SOURCE_DIR}/src/wasm
            -mexec-model=reactor -fuse-ld=${SCHACH_WASM_LD} -Wl,-z,stack-size=8388608 -Wl,--strip-all
            -o ${SCHACH_WASM_OUT} ${SCHACH_WASM_SOURCES}
    DEPENDS ${SCHACH_WASM_SOURCES} ${SCHACH_WASM_HEADERS}
    COMMENT "Compiling libschach and the engine to WebAssembly (${SCHACH_WASM_OUT})"
    VERBATIM)
  add_custom_target(schach_wasm ALL DEPENDS ${SCHACH_WASM_OUT})
  # Served with the bundled page: the module and the JavaScript of web/wasm/ into BUILD/web/wasm/.
  # After the bundle (which makes BUILD/web afresh), so it depends on the bundle's output.
  if(SCHACH_WEB_BUNDLE)
    file(GLOB SCHACH_WASM_JS CONFIGURE_DEPENDS web/wasm/*.js)
    add_custom_command(
      OUTPUT ${SCHACH_WEB_ROOT}/wasm/schach.wasm
      COMMAND ${CMAKE_COMMAND} -E make_directory ${SCHACH_WEB_ROOT}/wasm
      COMMAND ${CMAKE_COMMAND} -E copy ${SCHACH_WASM_JS} ${SCHACH_WEB_ROOT}/wasm/
      COMMAND ${CMAKE_COMMAND} -E copy ${SCHACH_WASM_OUT} ${SCHACH_WEB_ROOT}/wasm/schach.wasm
      DEPENDS ${SCHACH_WASM_OUT} ${SCHACH_WASM_JS} ${SCHACH_WEB_ROOT}/index.html
      COMMENT "Copying schach.wasm and web/wasm/*.js into ${SCHACH_WEB_ROOT}/wasm"
      VERBATIM)
    add_custom_target(schach_wasm_web ALL DEPENDS ${SCHACH_WEB_ROOT}/wasm/schach.wasm)
  endif()
endif()
