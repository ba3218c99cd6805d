#pragma once
// Incident replay inspector: one decision of a run. The job and its request, the outcome and the
// rank of the chosen node, the reward by term; the cluster the decision saw as a heat strip (one
// bar per node, coloured by dominant share, candidates and the choice marked) and a sortable
// table of every node; the candidates as the run's policy scored them next to the re-scoring by
// other policies.

#include "incident/logged_view.h"
#include "incident/run_index.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>

class QLabel;
class QTableView;
class QTableWidget;

namespace schedlab::views {

class NodeStateModel;

/// One bar per node (at most the widget's width; nodes are binned when there are more), height
/// and colour by dominant share; the chosen node red, candidates blue ticks. Click: nodeClicked.
class ClusterStrip : public QWidget {
    Q_OBJECT
public:
    explicit ClusterStrip(QWidget* parent = nullptr);
    void setState(std::shared_ptr<const cluster::ClusterState> state, std::vector<int> candidates, int chosen);
    QSize sizeHint() const override { return { 400, 56 }; }

signals:
    void nodeClicked(int node);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    int nodeAt(double x) const;
    std::shared_ptr<const cluster::ClusterState> m_state;
    std::vector<int> m_candidates;
    int m_chosen = -1;
};

class InspectorWidget : public QWidget {
    Q_OBJECT
public:
    explicit InspectorWidget(QWidget* parent = nullptr);
    /// Shows decision `in` of a run of `policy`; `when` is the decision's time as the table shows it.
    void setInspection(const incident::Inspection& in, std::shared_ptr<const trace::Trace> trace, const std::string& policy,
        const QString& when);
    /// Empties the view and shows `message` instead.
    void clear(const QString& message);
    QString headerText() const;
    QTableWidget* candidateTable() const { return m_candidates; }
    QTableView* nodeTable() const { return m_nodes; }
    ClusterStrip* strip() const { return m_strip; }

private:
    /// The decision, its request and outcome, the cluster then, the reward and what the source
    /// scheduler logged about the task (returned for the candidates' table).
    std::optional<incident::LoggedView> showHeader(const incident::Inspection& in, const trace::Trace* trace, const QString& when);
    /// The candidates side by side: the policy's, the logged ones, the re-scoring policies'.
    void showCandidates(const incident::Inspection& in, const std::optional<incident::LoggedView>& logged, const std::string& policy);
    QLabel* m_header = nullptr;
    QLabel* m_reward = nullptr;
    ClusterStrip* m_strip = nullptr;
    QTableWidget* m_candidates = nullptr;
    QTableView* m_nodes = nullptr;
    NodeStateModel* m_nodeModel = nullptr;
    const trace::Trace* m_sizedFor = nullptr; ///< the trace the node table's columns were sized for
};

} // namespace schedlab::views
