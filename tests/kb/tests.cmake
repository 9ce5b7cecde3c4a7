# The catalogue's refusal rules (scripts/catalog/catalog_rules.py) and the generated files in
# kb/messages/ agree: no generated entry is a format the rules refuse; and a curated entry's
# claim on a sample (which the generated entry copies) is the sample's own, whatever samples it
# is diagnosed with (so the binary). Needs Python 3 with PyYAML (Debian's python3-yaml,
# scripts/install-deps.sh).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME Catalog.GeneratedEntriesPassTheRefusalRules
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_rules_test.py ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:npu-doctor>)

# The extractor run end to end on a fixture source tree (a git repository made by the test):
# read, categorised, written, linted by the real loader, each sample recognised by its entry.
# Needs git and the same Python modules.
add_test(NAME Catalog.ExtractorOnAFixtureTreeWritesAFileTheLoaderRecognises
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_extractor_fixture_test.py
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:npu-doctor>)

# The same for the CANN runtime's extractor (extract_runtime.py) on a tree shaped like
# hicann/runtime: macro layers, the error-code table, module tags, the code a call returns.
add_test(NAME Catalog.RuntimeExtractorOnAFixtureTreeWritesAFileTheLoaderRecognises
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_runtime_extractor_fixture_test.py
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:npu-doctor>)

# And for torch_npu's (extract_torch_npu.py) on a tree shaped like Ascend/pytorch: C++ checks and
# logs, Python raises, ErrCode suffixes, a message in a local variable, an override.
add_test(NAME Catalog.TorchNpuExtractorOnAFixtureTreeWritesAFileTheLoaderRecognises
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_torch_npu_extractor_fixture_test.py
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:npu-doctor>)
