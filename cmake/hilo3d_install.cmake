# `cmake --install BUILD [--prefix DIR]`: the public headers, libhilo3d, the hilo3d CLI, Dawn's
# library (<libdir>/hilo3d/libwebgpu_wrapper.so, where an installed hilo3d looks for it), a CMake
# package (find_package(hilo3d CONFIG) gives hilo3d::hilo3d with its dependencies) and
# hilo3d.pc for pkg-config. Both describe the package relative to their own location, so an
# install tree may be moved (or installed with --prefix) as a whole.
include(CMakePackageConfigHelpers)
set(HL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/hilo3d)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/hilo3d DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(TARGETS hilo3d EXPORT hilo3dTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS hilo3d_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# OPTIONAL: a build configured before the bootstrap fetched Dawn installs without it.
install(FILES ${HL_DAWN_DEFAULT_PATH} DESTINATION ${CMAKE_INSTALL_LIBDIR}/hilo3d OPTIONAL)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/CHANGELOG.md ${CMAKE_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT hilo3dTargets NAMESPACE hilo3d:: DESTINATION ${HL_INSTALL_CMAKEDIR} FILE hilo3dTargets.cmake)
set(HL_CONFIG_SHARED ${BUILD_SHARED_LIBS})
if(NOT HL_CONFIG_SHARED)
  set(HL_CONFIG_SHARED OFF)
endif()
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/hilo3dConfig.cmake.in ${CMAKE_BINARY_DIR}/hilo3dConfig.cmake
                              INSTALL_DESTINATION ${HL_INSTALL_CMAKEDIR})
# Before 1.0.0 a minor release may break the API: only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/hilo3dConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/hilo3dConfig.cmake ${CMAKE_BINARY_DIR}/hilo3dConfigVersion.cmake
        DESTINATION ${HL_INSTALL_CMAKEDIR})

# hilo3d.pc: prefix relative to the .pc file's own folder (${pcfiledir}).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(HL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(HL_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(HL_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH hl_pc_up "/hl_root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/hl_root")
  string(REGEX REPLACE "/$" "" hl_pc_up "${hl_pc_up}")
  set(HL_PC_PREFIX "\${pcfiledir}/${hl_pc_up}")
  set(HL_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(HL_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
list(TRANSFORM HL_GLSLANG_LIBS PREPEND "-l" OUTPUT_VARIABLE hl_pc_glslang)
list(JOIN hl_pc_glslang " " HL_PC_GLSLANG)
configure_file(${CMAKE_SOURCE_DIR}/cmake/hilo3d.pc.in ${CMAKE_BINARY_DIR}/hilo3d.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/hilo3d.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
