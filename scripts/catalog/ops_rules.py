"""Category rules for the operator libraries' checks (extract_ops.py): the first rule that fires
decides (ge_ops_common.Rule). An operator check that users hit is almost always about what they
passed: a data type, format or chip the operator does not support (compile_op_unsupported), or
shapes, dimensions, sizes and attribute values that break the operator's rules (compile_shape).
Null pointers and internal failures (a helper returning an error, a runtime call) say nothing the
user can fix (other), as do the aclnn null-pointer checks (curated 161001 is `other` too).
"""
from ge_ops_common import Rule
import ge_rules

NULL = Rule("null pointer", "other",
            r"\bnull(?:ptr)?\b|\bNULL\b|nullptr|must not be null|can ?not be null|is none\b")

DTYPE = Rule("dtype/format/chip unsupported", "compile_op_unsupported",
             r"\b(?:dtypes?|data ?types?|datatypes?|DT_[A-Z0-9_]+|formats?|bf16|bfloat16|fp16|float16|float32|fp32|int8|int4|int32|int64|"
             r"hifloat8|fp8|float8\w*|complex\d*|double)\b.{0,80}\b(?:not support|unsupported|not implemented|should be in|must be in|"
             r"should be|must be|must in|should in|only support|not (?:be )?(?:same|equal|match|consistent)|mismatch|invalid|can't be cast|cannot be cast|"
             r"not in|expected|incorrect|different|can't be|cannot be|must all be|match)"
             r"|\b(?:invalid|unsupported|incorrect|wrong) (?:dtype|data ?type|datatype|format)\b"
             r"|\b(?:not support|unsupported|only support|does not support)\w*.{0,60}\b(?:dtype|data ?type|datatype|DT_[A-Z0-9_]+|format)\b"
             r"|not implemented for|dtype support list|has incorrect (?:dtype|format)|can't be cast to|cannot be cast to|"
             r"expected dtype|same dtype|promote|\bsoc ?(?:version)?\b|\bplatform\b.{0,40}(?:not support|unsupported|only)|"
             r"\bnpu ?arch|\bchip\b.{0,30}(?:not support|unsupported)|(?:not support|unsupported).{0,40}\b(?:soc|chip|platform|arch|"
             r"Ascend\d+\w*|910\w*|310\w*)\b|\bAscend\d{3}\w*\b.{0,40}(?:not support|unsupported|only)",
             unless=r"\bshape|\bdims?\b|dimension")

# What the operator can do at all, even when the sentence is about a shape: "only support kD >= vD",
# "expert count ... currently only support 256", "queryD ... must be same equal 192/128/64",
# "antiquantGroupSize should be 128 or 64". The fix is another operator, configuration or model
# setting, not other inputs (the labelled blind logs agree: docs/accuracy.md, "What batch 13
# taught"). Two inputs that must agree with each other, and a tensor's number of dimensions
# ("dim num should be 2 or 3", "Only support 1D/2D/3D"), stay shape checks: the labelled logs
# call a wrong rank a shape problem.
SUPPORTED_ONLY = Rule("operator supports only some values", "compile_op_unsupported",
                      r"\bonly supports?\b|\bcurrently only\b|\bonly (?:be )?supported\b|\bnot supported\b|\bunsupported\b|"
                      r"\bdoes not support\b|\bnot support\b|\bcannot support\b|"
                      r"\b(?:must|should|can only) be (?:(?:same|equal|equal to|one of|either)\s+)*\d+(?:\s*(?:/|\bor\b)\s*\d+)+\b",
                      unless=r"\bmismatch|\bbroadcast|\bnot (?:equal|match|the same|same|consistent)|\bsame as\b|\bequal to \w*[a-z]|"
                             r"\bdim ?nums?\b|\bdims\b|\bdimensions?\b|-dimensional|\brank\b|\b\d+D\b")

SHAPE = Rule("shape/dim/size", "compile_shape",
             r"\bshapes?\b|\bdims?\b|dimension|\bdim ?num|\brank\b|\baxis|\baxes\b|\bbroadcast|\bsizes?\b|\blength\b|\blen\b|"
             r"\b[BNSDHWKMC]\b|\bbatch|\bseq\w*|\bhead\w*|\bhidden|\bblock|\bpage|\bstride|\bpad|\bkernel ?size|\bgroups?\b|"
             r"\bk-axis|\btranspose|\bcontiguous|\bempty tensor|\bnumel|element|tensor list|\bview\b|\bstorage|\binfer ?shape|"
             r"InferShape|\btiling",
             unless=r"\bdtype\b|data ?type")

OP_UNSUPPORTED = Rule("not supported", "compile_op_unsupported",
                      r"\bnot supported\b|\bunsupported\b|\bnot support\b|does not support|only support|is not implemented|"
                      r"no (?:kernel|binary|bin)|kernel .{0,20}not found|bin(?:ary)? .{0,20}not (?:found|exist)|"
                      r"\bopp\b.{0,30}not|op_type.{0,20}not|compile.{0,30}fail")

PARAM_INVALID = Rule("aclnn parameter check (161002)", "compile_shape", r"ACLNN_ERR_PARAM_INVALID", on="arg0")

# The attribute / argument value checks of the host side (must be, should be, invalid, out of range):
# the user passed a value the operator does not accept.
VALUE = Rule("argument value", "compile_shape",
             r"\b(?:must|should) (?:be|not|in|>|<|equal)|\binvalid\b|\bout of range\b|\bexceed|\bnot (?:equal|match|same)|"
             r"\bmismatch|\bnot in \[|\bincorrect|\bgreater than|\bless than|\blarger than|\bsmaller than|\bcannot be\b|"
             r"\bis required\b|\bnot allowed\b|\bnot valid\b|\bwrong\b|\bexpect(?:ed)?\b|has incorrect|\bonly\b|>=|<=|\brange\b")

# No NaN/overflow rule: the operators' "Division by zero" / "overflow" checks guard their own
# tiling arithmetic, not the computation's values.
RULES = [NULL, ge_rules.MEMORY, ge_rules.INSTALL, DTYPE, SUPPORTED_ONLY, SHAPE, OP_UNSUPPORTED, PARAM_INVALID, ge_rules.PERMISSION,
         ge_rules.DRIVER, ge_rules.RANK, ge_rules.COMMUNICATION, ge_rules.AICORE, VALUE]
