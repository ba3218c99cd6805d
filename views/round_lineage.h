#pragma once
// Fine-tune rounds as a lineage tree by parent (the Training tab and the Autoscaling tab's
// training panel): one row per round (id, status, mode and window, the evaluation's key figures
// for the learned policy and each baseline, weights, checkpoint or error), the finished ones
// offered as parents, the selected ones' checkpoints.

#include "store/project.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

class QComboBox;
class QTreeWidget;
class QWidget;

namespace schedlab::views {

/// "final GPU allocation %: learned 91.84, bestfit 93.08, fgd 95.49" (means over seeds of the
/// mode's key metrics: fill GPU allocation, timed p99 wait, autoscale replica-hours and SLO
/// minutes; every metric with allMetrics). Empty without values.
QString evaluationText(store::RoundKind kind, const std::vector<store::EvalValue>& values, bool allMetrics = false);

/// An empty lineage tree (its columns, multi-selection).
QTreeWidget* makeLineageTree(QWidget* parent);

/// Shows `rounds` in `tree` under their parents and offers the finished ones in `parentBox`
/// ("fresh network" first). The box keeps the round picked before when `keepPick`, else the newest.
/// Rounds in `overBudget` (their evaluation ended over a safety budget) show it in the status.
void showLineage(QTreeWidget* tree, QComboBox* parentBox, bool keepPick, const std::vector<store::RoundRow>& rounds,
    const std::map<int64_t, std::vector<store::EvalValue>>& evaluation, const std::map<int64_t, std::vector<std::string>>& overBudget = {});

/// Checkpoints of the selected finished rounds.
std::vector<std::string> selectedCheckpoints(const QTreeWidget* tree);

} // namespace schedlab::views
