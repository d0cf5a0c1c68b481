# Installation and the exported CMake package: find_package(dagml) then link dagml::dagml.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS dagml_flags dagml_graph dagml_autodiff dagml_optim dagml_models dagml_distributed dagml_dagml
  EXPORT dagmlTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(layer graph autodiff optim models distributed)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/ DESTINATION include/dagml/${layer}
    FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dagml/ DESTINATION include/dagml FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/ DESTINATION ${DAGML_INSTALL_DATADIR} FILES_MATCHING PATTERN "*.csv" PATTERN "*.dat" PATTERN "*.md")

install(EXPORT dagmlTargets NAMESPACE dagml:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dagml)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dagmlConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dagmlConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dagml)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dagmlConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dagmlConfig.cmake ${PROJECT_BINARY_DIR}/dagmlConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dagml)
