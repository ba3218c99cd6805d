#include "cli_args.h"

#include <sstream>

#include <charconv>

namespace schedlab::cli {

std::string Args::parse(const std::vector<std::string>& argv, const std::set<std::string>& valueOptions,
    const std::set<std::string>& flags)
{
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
            m_positional.push_back(a);
            continue;
        }
        std::string name = a.substr(2), val;
        bool hasValue = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            val = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasValue = true;
        }
        if (flags.count(name)) {
            if (hasValue)
                return "option --" + name + " takes no value";
            m_flags.insert(name);
        } else if (valueOptions.count(name)) {
            if (!hasValue) {
                if (i + 1 >= argv.size())
                    return "option --" + name + " needs a value";
                val = argv[++i];
            }
            m_values[name] = val;
        } else {
            return "unknown option --" + name;
        }
    }
    return {};
}

std::string Args::parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& options)
{
    std::set<std::string> values, flags;
    for (const OptionSpec& o : options)
        (o.isFlag() ? flags : values).insert(o.name);
    return parse(argv, values, flags);
}

std::optional<std::string> Args::value(const std::string& name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

long long Args::integer(const std::string& name, long long fallback, std::string& error) const
{
    auto v = value(name);
    if (!v)
        return fallback;
    long long out = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || p != v->data() + v->size()) {
        error = "--" + name + ": '" + *v + "' is not an integer";
        return fallback;
    }
    return out;
}

double Args::real(const std::string& name, double fallback, std::string& error) const
{
    auto v = value(name);
    if (!v)
        return fallback;
    double out = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || p != v->data() + v->size()) {
        error = "--" + name + ": '" + *v + "' is not a number";
        return fallback;
    }
    return out;
}

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

} // namespace schedlab::cli
