#pragma once
/// The words kube-scheduler logs its decisions in, structured (1.19 on) and printf-style (1.14 to
/// 1.18, some until later), so a log of any of those versions reads the same decisions.

#include <string_view>

namespace schedlab::trace::wording {

// Structured messages (klog InfoS), as in kubernetes/pkg/scheduler/schedule_one.go (1.22-1.31)
// and scheduler.go before it.
inline constexpr std::string_view kBound = "Successfully bound pod to node";
inline constexpr std::string_view kNoFit = "Unable to schedule pod; no fit; waiting";
inline constexpr std::string_view kNoNodes = "Unable to schedule pod; no nodes are registered to the cluster; waiting";
inline constexpr std::string_view kNodeNotFound = "Unable to schedule pod, possibly due to node not found; waiting";
inline constexpr std::string_view kPluginScore = "Plugin scored node for pod";
inline constexpr std::string_view kFinalScore = "Calculated node's final score for pod";

inline bool isDecisionMessage(std::string_view m)
{
    return m == kPluginScore || m == kFinalScore || m == kBound || m == kNoFit || m == kNoNodes || m == kNodeNotFound;
}

/// A printf-style decision line's parts, `message` the structured message it became.
struct Legacy {
    std::string_view message, pod, node, err, evaluated, feasible;
};

/// The text after a klog header in the printf wordings:
///   pod NS/NAME is bound successfully on node NODE, 3 nodes evaluated, 1 nodes were found feasible
///   (1.14-1.15; 1.16-1.18 quote "NODE", end with '.' and may add ". Bound node resource: ...")
///   Unable to schedule NS/NAME: no fit: ERR; waiting
///   Unable to schedule NS/NAME: no nodes are registered to the cluster; waiting
///   Unable to schedule NS/NAME: possibly due to node not found: ERR; waiting
/// False for anything else.
bool parseLegacy(std::string_view text, Legacy& out);

/// Whether an unread line's text looks like a scheduling decision in a wording not known here
/// (the log is then warned about rather than read as having none).
bool looksLikeDecision(std::string_view text);

} // namespace schedlab::trace::wording
