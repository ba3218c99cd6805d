#include "k8s_events.h"

#include "fields.h"

namespace schedlab::trace {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view stripEnd(std::string_view s)
{
    s = trimmed(s);
    while (!s.empty() && s.back() == '.')
        s.remove_suffix(1);
    return trimmed(s);
}

/// Splits at ", " where the next part satisfies `startsPart` (a reason may contain ", " inside
/// braces, e.g. a taint's value).
template <class Pred>
std::vector<std::string_view> splitParts(std::string_view s, Pred startsPart)
{
    std::vector<std::string_view> parts;
    std::size_t begin = 0, depth = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        if (s[i] == '{')
            ++depth;
        else if (s[i] == '}' && depth > 0)
            --depth;
        else if (depth == 0 && s[i] == ',' && s[i + 1] == ' ' && startsPart(s.substr(i + 2))) {
            parts.push_back(s.substr(begin, i - begin));
            begin = i + 2;
        }
    }
    parts.push_back(s.substr(begin));
    return parts;
}

} // namespace

std::optional<std::string> scheduledNode(std::string_view m)
{
    constexpr std::string_view prefix = "Successfully assigned ";
    if (!m.starts_with(prefix))
        return std::nullopt;
    const std::size_t to = m.rfind(" to ");
    if (to == std::string_view::npos || to < prefix.size())
        return std::nullopt;
    const std::string_view node = trimmed(m.substr(to + 4));
    if (node.empty() || node.find(' ') != std::string_view::npos)
        return std::nullopt;
    return std::string(node);
}

FailedScheduling parseFailedScheduling(std::string_view m)
{
    FailedScheduling out;
    // Drop the preemption post-filter's sentence (1.23+): it restates the same nodes.
    if (const std::size_t pre = m.find(" preemption: "); pre != std::string_view::npos)
        m = m.substr(0, pre);
    constexpr std::string_view newForm = " nodes are available: ";
    constexpr std::string_view oldForm = "No nodes are available that match all of the predicates: ";
    if (const std::size_t at = m.find(newForm); at != std::string_view::npos) {
        // "0/3": the total after the slash.
        const std::size_t slash = m.rfind('/', at);
        if (slash != std::string_view::npos) {
            int64_t n = 0;
            if (parseInt64(m.substr(slash + 1, at - slash - 1), n) == ParseStatus::Ok)
                out.totalNodes = int32_t(n);
        }
        const std::string_view list = stripEnd(m.substr(at + newForm.size()));
        for (std::string_view part : splitParts(list, [](std::string_view rest) { return !rest.empty() && isDigit(rest[0]); })) {
            part = stripEnd(part);
            const std::size_t sp = part.find(' ');
            int64_t n = 0;
            if (sp != std::string_view::npos && parseInt64(part.substr(0, sp), n) == ParseStatus::Ok)
                out.reasons.push_back({ std::string(stripEnd(part.substr(sp + 1))), int32_t(n) });
            else if (!part.empty())
                out.reasons.push_back({ std::string(part), -1 });
        }
    } else if (const std::size_t old = m.find(oldForm); old != std::string_view::npos) {
        const std::string_view list = stripEnd(m.substr(old + oldForm.size()));
        for (std::string_view part : splitParts(list, [](std::string_view) { return true; })) {
            part = stripEnd(part);
            int64_t n = -1;
            if (part.ends_with(")")) {
                const std::size_t open = part.rfind(" (");
                if (open != std::string_view::npos
                    && parseInt64(part.substr(open + 2, part.size() - open - 3), n) == ParseStatus::Ok) {
                    out.reasons.push_back({ std::string(part.substr(0, open)), int32_t(n) });
                    continue;
                }
            }
            if (!part.empty())
                out.reasons.push_back({ std::string(part), -1 });
        }
    }
    if (out.reasons.empty())
        out.reasons.push_back({ std::string(stripEnd(m)), -1 });
    return out;
}

} // namespace schedlab::trace
