#pragma once
// Minimal argument parsing for schedlab-cli subcommands: positionals, --key value, --key=value,
// and boolean flags. Unknown options are errors (a typo must not silently change a result).

#include "option_spec.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace schedlab::cli {

class Args {
public:
    /// `valueOptions` take a value, `flags` do not. Returns an error text, empty on success.
    std::string parse(const std::vector<std::string>& argv, const std::set<std::string>& valueOptions,
        const std::set<std::string>& flags);
    /// The same with the options of a command table entry (option_spec.h).
    std::string parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& options);

    const std::vector<std::string>& positional() const { return m_positional; }
    bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    /// Integer option; `error` is set on a malformed value.
    long long integer(const std::string& name, long long fallback, std::string& error) const;
    double real(const std::string& name, double fallback, std::string& error) const;

private:
    std::vector<std::string> m_positional;
    std::set<std::string> m_flags;
    std::map<std::string, std::string> m_values;
};

/// "a,b,,c" -> {a, b, c}.
std::vector<std::string> splitList(const std::string& s);

} // namespace schedlab::cli
