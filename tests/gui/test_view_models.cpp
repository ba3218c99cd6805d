// The incident replay item models (decision table, its filter proxy, node state) under Qt's model
// tester, with values hand-computed on a tiny timed run:
//   nodes n0 (4000 m cpu), n1 (8000 m); jobs p1000 (2000 m, t=0, 100 s), p1001 (8000 m, t=10,
//   50 s), p1002 (4000 m, t=20, 10 s); first-fit, FCFS, no backfilling:
//   p1000 -> n0 at 0; p1001 -> n1 at 10; p1002 fits nowhere at 20 (one "waited" decision, no
//   feasible node) and goes to n1 at 60, when p1001 ends.

#include "trace_builder.h"

#include "decision_table_model.h"
#include "node_state_model.h"

#include "incident/run_index.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace schedlab;

namespace {
std::shared_ptr<const incident::RunIndex> tinyRun()
{
    test::TraceBuilder b;
    b.node(4000, 1 << 20, 0).node(8000, 1 << 20, 0);
    b.task(2000, 1, 0, 0, 0, 100).task(8000, 1, 0, 0, 10, 50).task(4000, 1, 0, 0, 20, 10);
    auto trace = std::make_shared<const trace::Trace>(b.t);
    sim::TimedOptions o;
    o.backfill = sim::Backfill::None;
    auto index = incident::buildRunIndex(trace, sim::RunSpec::timed("firstfit", o));
    if (!index)
        qFatal("%s", index.error().toString().c_str());
    return index.value();
}
} // namespace

class TestViewModels : public QObject {
    Q_OBJECT
private slots:
    void decisionTable()
    {
        views::DecisionTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        auto index = tinyRun();
        model.setIndex(index);
        using M = views::DecisionTableModel;
        QCOMPARE(model.rowCount(), 4);
        const int nodes[] = { 0, 1, -1, 1 };
        const double times[] = { 0, 10, 20, 60 };
        const char* jobs[] = { "p1000", "p1001", "p1002", "p1002" };
        const char* outcomes[] = { "placed", "placed", "waited", "placed" };
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(model.data(model.index(r, M::Node), Qt::UserRole).toInt(), nodes[r]);
            QCOMPARE(model.data(model.index(r, M::Time), Qt::UserRole).toDouble(), times[r]);
            QCOMPARE(model.data(model.index(r, M::Job)).toString(), QString(jobs[r]));
            QCOMPARE(model.data(model.index(r, M::Outcome)).toString(), QString(outcomes[r]));
        }
        QCOMPARE(model.data(model.index(1, M::Feasible)).toInt(), 1); // only n1 had 8000 m free
        QCOMPARE(model.data(model.index(2, M::Feasible)).toInt(), 0);
        QCOMPARE(model.data(model.index(2, M::Node)).toString(), QString("—"));
        QCOMPARE(model.data(model.index(3, M::Rank)).toInt(), 1);
        QCOMPARE(model.data(model.index(3, M::Time)).toString(), QString("0.017 h")); // 60 s after the first tick at 0
        QCOMPARE(model.headerData(M::Time, Qt::Horizontal).toString(), QString("time"));

        views::DecisionFilterProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setNodeFilter(1);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setNodeFilter(-1);
        proxy.setOutcomeFilter(int(sim::Outcome::Waited));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setOutcomeFilter(-1);
        proxy.setJobFilter("p1002");
        QCOMPARE(proxy.rowCount(), 2);
        QCOMPARE(proxy.data(proxy.index(1, M::Index)).toInt(), 3);
        proxy.setJobFilter("");
        proxy.setTimeRange(5, 30); // p1001 placed at 10, p1002 waiting at 20
        QCOMPARE(proxy.rowCount(), 2);
        QCOMPARE(proxy.data(proxy.index(0, M::Job)).toString(), QString("p1001"));
        QCOMPARE(proxy.data(proxy.index(1, M::Outcome)).toString(), QString("waited"));
        proxy.setTimeRange(std::nan(""), std::nan(""));
        proxy.sort(M::Time, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, M::Job)).toString(), QString("p1002"));
        model.setIndex(nullptr);
        QCOMPARE(proxy.rowCount(), 0);
    }

    void nodeState()
    {
        auto index = tinyRun();
        const sim::Decision& d = index->decisions.decisions()[3];
        views::NodeStateModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The cluster p1002 saw at t=60: p1000 still on n0, p1001 gone from n1.
        model.setState(index->journal.stateAt(d.statePos), index->trace, { { 1, 1 } }, 1, index->trace->tasks[2].request);
        using M = views::NodeStateModel;
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(0, M::FreeCpu)).toString(), QString("2000 / 4000"));
        QCOMPARE(model.data(model.index(1, M::FreeCpu)).toString(), QString("8000 / 8000"));
        QCOMPARE(model.data(model.index(0, M::Name)).toString(), QString("n0"));
        QCOMPARE(model.data(model.index(1, M::Candidate)).toString(), QString("1 (chosen)"));
        QCOMPARE(model.data(model.index(1, M::Node), M::HighlightRole).toInt(), 2);
        QCOMPARE(model.data(model.index(0, M::Node), M::HighlightRole).toInt(), 0);
        QVERIFY(model.data(model.index(0, M::Fit)).toString() != model.data(model.index(1, M::Fit)).toString()); // n0 lacks cpu
        model.setState(nullptr, nullptr, {}, -1);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestViewModels)
#include "test_view_models.moc"
