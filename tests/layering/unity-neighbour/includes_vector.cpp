// Includes what it uses.
#include <vector>
std::vector<int> numbers() { return {1, 2}; }
