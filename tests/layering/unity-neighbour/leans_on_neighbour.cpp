// Uses std::vector without including <vector>: compiles only after includes_vector.cpp in a
// unity source, which is what scripts/check-includes.py exists to catch.
std::vector<int> more_numbers() { return {3}; }
