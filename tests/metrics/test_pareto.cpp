// Pareto fronts (core/metrics/pareto.h) on hand-worked points.

#include "metrics/pareto.h"

#include <QtTest>

#include <cmath>

using namespace schedlab::metrics;

class TestPareto : public QObject {
    Q_OBJECT
private slots:
    void twoObjectivesMinimised()
    {
        // (wait, frag): A(1,5) B(2,3) C(3,4) D(4,1) E(2,3) F(5,5).
        // C is dominated by B; F by everything; B and E are equal: both stay.
        const std::vector<std::vector<double>> p = { { 1, 5 }, { 2, 3 }, { 3, 4 }, { 4, 1 }, { 2, 3 }, { 5, 5 } };
        const auto front = paretoFront(p, { Sense::Minimise, Sense::Minimise });
        QCOMPARE(front, (std::vector<bool> { true, true, false, true, true, false }));
    }

    void aMaximisedObjectiveKeepsWhatItWins()
    {
        // (wait min, util max): C(3,4) is worse than B(2,3) in wait but better in util: on the front.
        const std::vector<std::vector<double>> p = { { 2, 3 }, { 3, 4 }, { 3, 3 }, { 1, 1 } };
        const auto front = paretoFront(p, { Sense::Minimise, Sense::Maximise });
        QCOMPARE(front, (std::vector<bool> { true, true, false, true }));
        // Three objectives: (wait, frag, util). The second is dominated only when all three say so.
        const std::vector<std::vector<double>> q = { { 1, 0.2, 0.9 }, { 1, 0.3, 0.9 }, { 2, 0.1, 0.5 } };
        QCOMPARE(paretoFront(q, { Sense::Minimise, Sense::Minimise, Sense::Maximise }), (std::vector<bool> { true, false, true }));
    }

    void nanIsNeverOnTheFrontNorDominates()
    {
        const std::vector<std::vector<double>> p = { { NAN, 0 }, { 1, 1 }, { 2, 2 } };
        QCOMPARE(paretoFront(p, { Sense::Minimise, Sense::Minimise }), (std::vector<bool> { false, true, false }));
        QVERIFY(paretoFront({}, { Sense::Minimise }).empty());
    }
};

QTEST_GUILESS_MAIN(TestPareto)
#include "test_pareto.moc"
