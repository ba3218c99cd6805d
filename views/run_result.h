#pragma once
// One finished run as the views see it: the workflow's outcome (spec, immutable result, journal)
// plus what the session adds (id, legend label, project run id). Shared between the dashboard,
// the runs list and the incident panel.

#include "workflow/execute.h"

#include <QMetaType>

#include <memory>
#include <string>

namespace schedlab::views {

struct RunResult : workflow::RunOutcome {
    int id = 0; ///< unique within the session (or the project run id)
    /// The colour key of the legend: the spec's policy, or "fork→B" for a fork.
    std::string policy;
    std::string label; ///< shown in legends, e.g. "fgd #42"
    int64_t storedId = -1; ///< run id in the open project; -1 = not saved
    bool fork = false; ///< a counterfactual fork (incident replay): shown, never stored
    bool isFill() const { return fill != nullptr; }
    uint64_t seed() const { return spec.seed(); }
};

/// The colour key (and comparison group) of a run: its policy, with how it made room and the mode
/// for fill runs, so "bestfit", "bestfit + migration" and "bestfit (fill)" never share a colour or
/// a comparison group in one session.
inline std::string colourKey(const sim::RunSpec& spec)
{
    return spec.policy + spec.roomSuffix() + (spec.isFill() ? " (fill)" : "");
}

} // namespace schedlab::views

Q_DECLARE_METATYPE(schedlab::views::RunResult)
