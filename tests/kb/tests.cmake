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

# And for vLLM's (extract_vllm.py, its main() unchanged) on a tree shaped like vllm-project/vllm:
# the upstream commit and the files in scope, raises, asserts, logger calls, what is left out.
add_test(NAME Catalog.VllmExtractorOnAFixtureTreeWritesAFileTheLoaderRecognises
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_vllm_extractor_fixture_test.py
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:npu-doctor>)

# And for vLLM-Ascend's (extract_vllm_ascend.py, its main() unchanged) on a tree shaped like
# vllm-project/vllm-ascend with three release tags: the current file and the three LEGACY files.
add_test(NAME Catalog.VllmAscendExtractorOnAFixtureTreeWritesFilesTheLoaderRecognises
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_vllm_ascend_extractor_fixture_test.py
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:npu-doctor>)

# And for GE's (extract_ge.py, its main() unchanged; ge_ops_common.py and ge_rules.py are shared
# with metadef's and the operator libraries' extractors) on trees shaped like hicann/ge and
# hicann/metadef: metadef's macros expanded at GE's calls, ge.yaml and ge_engines.yaml.
add_test(NAME Catalog.GeExtractorOnAFixtureTreeWritesFilesTheLoaderRecognises
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/catalog_ge_extractor_fixture_test.py
                 ${PROJECT_SOURCE_DIR} $<TARGET_FILE:npu-doctor>)
