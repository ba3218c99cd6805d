#pragma once
// One finished run as the views see it: immutable, shared between the dashboard and the runs list.

#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"

#include <QMetaType>

#include <memory>
#include <string>

namespace schedlab::views {

struct RunResult {
    int id = 0; ///< unique within the session (or the project run id)
    std::string policy;
    uint64_t seed = 0;
    std::string label; ///< shown in legends, e.g. "fgd #42"
    int64_t storedId = -1; ///< run id in the open project; -1 = not saved
    std::shared_ptr<const sim::TimedResult> timed; ///< set in timed mode
    std::shared_ptr<const sim::FillResult> fill; ///< set in fill mode
    bool fork = false; ///< a counterfactual fork (incident replay): shown, never stored
    bool isFill() const { return fill != nullptr; }
};

} // namespace schedlab::views

Q_DECLARE_METATYPE(schedlab::views::RunResult)
