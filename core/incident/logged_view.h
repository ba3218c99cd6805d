#pragma once
/// What the source scheduler logged for a task (trace::LoggedDecisions: Kubernetes events,
/// kube-scheduler logs, decision logs of external schedulers), shaped for the inspector, and how
/// often a policy re-scoring the same states picks what the scheduler picked.

#include "base/progress.h"
#include "base/result.h"
#include "run_index.h"
#include "trace/trace.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedlab::incident {

struct LoggedView {
    struct Candidate {
        int32_t node = -1; ///< trace node index; -1 = a node the trace lacks
        bool hasScore = false;
        double score = 0; ///< the scheduler's total (kube-scheduler's final score, a Q-value)
        std::vector<std::pair<std::string, double>> terms; ///< per plugin / reward term, as logged
    };
    std::size_t index = 0; ///< into trace.logged.decisions
    trace::LoggedOutcome outcome = trace::LoggedOutcome::Placed;
    double timeS = -1;
    int32_t node = -1;
    int32_t evaluatedNodes = -1, feasibleNodes = -1;
    std::string source;
    int32_t count = 1;
    std::vector<std::pair<std::string, int32_t>> reasons; ///< why nodes were unfit (unschedulable), with node counts
    std::vector<Candidate> candidates; ///< best logged score first (ties keep log order)
    bool tie = false; ///< the best logged score is shared: the scheduler chose among equals
    int unschedulableBefore = 0; ///< the task's logged unschedulable attempts before this one
};

/// The task's logged decision for an inspection at time `timeS`: its logged placement when it has
/// one, else its last unschedulable (or waited) decision at or before `timeS`, else its first;
/// nullopt when the trace logs nothing about the task.
std::optional<LoggedView> loggedView(const trace::Trace& trace, uint32_t task, double timeS);

/// A candidate's total: its logged score, else the sum of its terms.
double loggedTotal(const LoggedView::Candidate& c);

struct LoggedAgreement {
    std::string policy;
    int64_t placed = 0; ///< placed decisions of the run whose task has a logged placement with candidates
    int64_t ties = 0; ///< of those, the logged best score was shared (the scheduler drew among equals)
    int64_t agreed = 0, disagreed = 0; ///< the others: the policy picks the logged node, or not
    int64_t scoresCompared = 0, scoresEqual = 0; ///< the policy's score of each logged candidate = the logged total
    std::string firstDisagreement; ///< decision, task, logged node and score, the policy's pick and score
    double agreementPct() const { return agreed + disagreed ? 100.0 * double(agreed) / double(agreed + disagreed) : 0.0; }
};

/// Re-scores, with `policy`, the state each placed decision of the run saw (the run should be the
/// `logged` replay, so the states are the scheduler's) and compares with the logged choice and
/// scores. `schedulerConfig` (a KubeSchedulerConfiguration, YAML) replaces the run's for
/// k8s-default / k8s-sampling: the configuration the logging scheduler ran with. Errors: unknown
/// policy, a bad configuration; cancelled.
Result<LoggedAgreement> compareWithLogged(const RunIndex& index, const std::string& policy, ProgressFn progress = {},
    CancelToken cancel = {}, const std::string* schedulerConfig = nullptr);

} // namespace schedlab::incident
