#pragma once
// One option a schedlab-cli command accepts, as its command table entry lists it: the parser, the
// help text and the bash completion all read these.

#include <initializer_list>
#include <string>
#include <vector>

namespace schedlab::cli {

/// `--name VALUE` when `value` is a placeholder ("N", "FILE", "a,b"), a flag `--name` when empty.
struct OptionSpec {
    std::string name; ///< without the leading "--"
    std::string value; ///< the value's placeholder in help text; empty for a flag
    std::string help; ///< one line: what the option does
    bool isFlag() const { return value.empty(); }
};

/// The options of several groups, in order (a command's own and the shared import or run options).
inline std::vector<OptionSpec> joinOptions(std::initializer_list<std::vector<OptionSpec>> groups)
{
    std::vector<OptionSpec> out;
    for (const std::vector<OptionSpec>& g : groups)
        out.insert(out.end(), g.begin(), g.end());
    return out;
}

} // namespace schedlab::cli
