#include "round_lineage.h"

#include <QComboBox>
#include <QHeaderView>
#include <QStringList>
#include <QTreeWidget>

#include <algorithm>

namespace schedlab::views {

QString evaluationText(store::RoundKind kind, const std::vector<store::EvalValue>& values, bool allMetrics)
{
    // Means over seeds per (metric, policy).
    std::vector<std::string> metrics, policies;
    std::map<std::pair<std::string, std::string>, std::pair<double, int>> sum;
    for (const store::EvalValue& v : values) {
        if (std::find(metrics.begin(), metrics.end(), v.metric) == metrics.end())
            metrics.push_back(v.metric);
        if (std::find(policies.begin(), policies.end(), v.policy) == policies.end())
            policies.push_back(v.policy);
        auto& s = sum[{ v.metric, v.policy }];
        s.first += v.value;
        ++s.second;
    }
    static const std::map<std::string, QString> names = { { "finalGpuAllocPct", QStringLiteral("final GPU allocation %") },
        { "fragRatePct", QStringLiteral("fragmentation rate %") }, { "failedPods", QStringLiteral("failed pods") },
        { "waitP99S", QStringLiteral("p99 wait s") }, { "waitMeanS", QStringLiteral("mean wait s") }, { "failed", QStringLiteral("failed jobs") },
        { "meanGpuUtilPct", QStringLiteral("mean GPU utilization %") }, { "cpuFragPct", QStringLiteral("CPU fragmentation %") },
        { "slaViolationPct", QStringLiteral("SLA violations %") }, { "migrationsPerHour", QStringLiteral("migrations/h") },
        { "evictionsPerHour", QStringLiteral("evictions/h") }, { "gpuBlockedWithRoom", QStringLiteral("GPU jobs blocked, room") }, { "replicaHours", QStringLiteral("replica-h") },
        { "sloViolationMinutes", QStringLiteral("SLO min") }, { "missedPct", QStringLiteral("late %") },
        { "scalingActions", QStringLiteral("scaling actions") }, { "burstLagP50S", QStringLiteral("median burst lag s") },
        { "meanUtilizationPct", QStringLiteral("utilisation %") }, { "cost", QStringLiteral("cost") } };
    // The learned policy first, then the baselines as stored.
    std::stable_partition(policies.begin(), policies.end(), [](const std::string& p) { return p == "learned"; });
    const std::vector<std::string> keys = kind == store::RoundKind::Fill ? std::vector<std::string> { "finalGpuAllocPct" }
        : kind == store::RoundKind::Autoscale                            ? std::vector<std::string> { "replicaHours", "sloViolationMinutes" }
                                                                         : std::vector<std::string> { "waitP99S" };
    QStringList lines;
    for (const std::string& m : metrics) {
        if (!allMetrics && std::find(keys.begin(), keys.end(), m) == keys.end())
            continue;
        QStringList parts;
        for (const std::string& p : policies)
            if (auto it = sum.find({ m, p }); it != sum.end())
                parts << QStringLiteral("%1 %2").arg(QString::fromStdString(p)).arg(it->second.first / it->second.second, 0, 'f', m == "sloViolationMinutes" || m == "scalingActions" ? 0 : 2);
        lines << QStringLiteral("%1: %2").arg(names.count(m) ? names.at(m) : QString::fromStdString(m), parts.join(QStringLiteral(", ")));
    }
    return lines.join('\n');
}

QTreeWidget* makeLineageTree(QWidget* parent)
{
    auto* tree = new QTreeWidget(parent);
    tree->setObjectName("roundLineage");
    tree->setHeaderLabels({ QObject::tr("Round"), QObject::tr("Status"), QObject::tr("Mode / window"), QObject::tr("Evaluation (mean over seeds)"),
        QObject::tr("Weights"), QObject::tr("Checkpoint / error") });
    tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return tree;
}

void showLineage(QTreeWidget* tree, QComboBox* parentBox, bool keepPick, const std::vector<store::RoundRow>& rounds,
    const std::map<int64_t, std::vector<store::EvalValue>>& evaluation, const std::map<int64_t, std::vector<std::string>>& overBudget)
{
    const qlonglong keep = parentBox->currentData().toLongLong();
    parentBox->clear();
    parentBox->addItem(QObject::tr("fresh network"), qlonglong(-1));
    tree->clear();
    std::map<int64_t, QTreeWidgetItem*> items;
    for (const store::RoundRow& r : rounds) {
        QStringList cols { QString::number(r.id), QString::fromStdString(r.status), QString::fromStdString(store::roundKindName(r.kind) + (", " + r.window)),
            evaluation.count(r.id) ? evaluationText(r.kind, evaluation.at(r.id)) : QStringLiteral("—"),
            QString::fromStdString(r.weights.substr(0, r.weights.find(r.kind == store::RoundKind::Autoscale ? ",tailScale" : ",customTerm"))),
            QString::fromStdString(r.status == "finished" ? r.checkpoint : r.error) };
        auto* parentItem = items.count(r.parentId) ? items[r.parentId] : nullptr;
        auto* item = parentItem ? new QTreeWidgetItem(parentItem, cols) : new QTreeWidgetItem(tree, cols);
        item->setData(0, Qt::UserRole, qlonglong(r.id));
        item->setData(0, Qt::UserRole + 1, QString::fromStdString(r.status == "finished" ? r.checkpoint : std::string()));
        item->setToolTip(5, cols[5]);
        if (evaluation.count(r.id)) // every metric, for the learned policy and each baseline
            item->setToolTip(3, evaluationText(r.kind, evaluation.at(r.id), true));
        if (auto over = overBudget.find(r.id); over != overBudget.end() && !over->second.empty()) {
            QStringList why;
            for (const std::string& o : over->second)
                why << QString::fromStdString(o);
            item->setText(1, QObject::tr("%1, over budget").arg(cols[1]));
            item->setForeground(1, QColor(200, 90, 0));
            item->setToolTip(1, QObject::tr("The evaluation ended over budget: %1").arg(why.join(QStringLiteral("; "))));
        }
        if (r.status != "finished")
            item->setForeground(1, QColor(170, 0, 0));
        else
            parentBox->addItem(QObject::tr("round %1").arg(r.id), qlonglong(r.id));
        items[r.id] = item;
    }
    tree->expandAll();
    // Default: continue from the newest finished round; a round the user picked stays picked.
    const int at = keepPick ? parentBox->findData(keep) : -1;
    parentBox->setCurrentIndex(at >= 0 ? at : parentBox->count() - 1);
}

std::vector<std::string> selectedCheckpoints(const QTreeWidget* tree)
{
    std::vector<std::string> out;
    for (QTreeWidgetItem* item : tree->selectedItems()) {
        const QString c = item->data(0, Qt::UserRole + 1).toString();
        if (!c.isEmpty())
            out.push_back(c.toStdString());
    }
    return out;
}

} // namespace schedlab::views
