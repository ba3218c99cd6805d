#include "kube_scheduler_wording.h"

namespace schedlab::trace::wording {

namespace {

std::string_view unquote(std::string_view s)
{
    return s.size() >= 2 && s.front() == '"' && s.back() == '"' ? s.substr(1, s.size() - 2) : s;
}

/// The digits at the start of `s`.
std::string_view leadingNumber(std::string_view s)
{
    std::size_t n = 0;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9')
        ++n;
    return s.substr(0, n);
}

bool parseBound(std::string_view t, Legacy& out)
{
    constexpr std::string_view kPod = "pod ", kOn = " is bound successfully on node ", kEvaluated = " nodes evaluated, ";
    const std::size_t on = t.find(kOn);
    if (t.substr(0, kPod.size()) != kPod || on == std::string_view::npos)
        return false;
    out = Legacy { kBound, t.substr(kPod.size(), on - kPod.size()), {}, {}, {}, {} };
    std::string_view rest = t.substr(on + kOn.size());
    const std::size_t comma = rest.find(", ");
    out.node = unquote(rest.substr(0, comma));
    if (comma != std::string_view::npos) {
        rest = rest.substr(comma + 2);
        out.evaluated = leadingNumber(rest);
        if (const std::size_t e = rest.find(kEvaluated); e != std::string_view::npos && e == out.evaluated.size())
            out.feasible = leadingNumber(rest.substr(e + kEvaluated.size()));
    }
    return !out.pod.empty() && out.pod.find(' ') == std::string_view::npos && !out.node.empty();
}

bool parseUnable(std::string_view t, Legacy& out)
{
    constexpr std::string_view kUnable = "Unable to schedule ", kWaiting = "; waiting";
    if (t.substr(0, kUnable.size()) != kUnable || t.size() < kWaiting.size() || t.substr(t.size() - kWaiting.size()) != kWaiting)
        return false;
    const std::string_view rest = t.substr(kUnable.size(), t.size() - kUnable.size() - kWaiting.size());
    const std::size_t colon = rest.find(": ");
    if (colon == std::string_view::npos || colon == 0 || rest.substr(0, colon).find(' ') != std::string_view::npos)
        return false; // "Unable to schedule pod; ..." is the structured wording
    out = Legacy { {}, rest.substr(0, colon), {}, {}, {}, {} };
    const std::string_view why = rest.substr(colon + 2);
    constexpr std::string_view kNoFitWhy = "no fit: ", kNotFoundWhy = "possibly due to node not found: ";
    if (why == "no nodes are registered to the cluster") {
        out.message = kNoNodes;
    } else if (why.substr(0, kNoFitWhy.size()) == kNoFitWhy) {
        out.message = kNoFit;
        out.err = why.substr(kNoFitWhy.size());
    } else if (why.substr(0, kNotFoundWhy.size()) == kNotFoundWhy) {
        out.message = kNodeNotFound;
        out.err = why.substr(kNotFoundWhy.size());
    } else {
        return false;
    }
    return true;
}

} // namespace

bool parseLegacy(std::string_view text, Legacy& out)
{
    return parseBound(text, out) || parseUnable(text, out);
}

bool looksLikeDecision(std::string_view t)
{
    for (std::string_view w : { "bound successfully", "Successfully bound", "Unable to schedule", "scored node", "final score", "no fit" })
        if (t.find(w) != std::string_view::npos)
            return true;
    return false;
}

} // namespace schedlab::trace::wording
