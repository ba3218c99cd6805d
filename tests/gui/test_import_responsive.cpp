// The workbench stays responsive while it imports a large real trace (Google 2011 part 0: 450k
// task events): the import runs on a worker, the event loop keeps serving timers and paints, the
// progress bar moves, and cancel stops the import without an error banner.

#include "test_util.h"

#include "main_window.h"

#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTimer>
#include <QSettings>
#include <QtTest>

using namespace schedlab;

class TestImportResponsive : public QObject {
    Q_OBJECT
private:
    std::vector<std::string> googlePart0() const
    {
        return { test::realTrace("google-2011/machine_events/part-00000-of-00001.csv.gz"),
            test::realTrace("google-2011/job_events/part-00000-of-00500.csv.gz"),
            test::realTrace("google-2011/task_events/part-00000-of-00500.csv.gz") };
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks"); // docks per tab from an earlier run must not change this one
    }

    void eventLoopRunsWhileImporting()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        // A 10 ms ping: with the import on the GUI thread it could not fire until the import ended.
        int pings = 0;
        qint64 maxGapMs = 0;
        QElapsedTimer sinceLast;
        QTimer ping;
        ping.setInterval(10);
        connect(&ping, &QTimer::timeout, this, [&] {
            if (sinceLast.isValid())
                maxGapMs = std::max(maxGapMs, sinceLast.elapsed());
            sinceLast.restart();
            ++pings;
        });
        auto* bar = w.findChild<QProgressBar*>("statusProgress");
        QVERIFY(bar);
        QSignalSpy opened(&w, &app::MainWindow::traceOpened);
        int maxProgress = 0;
        int pingsDuringImport = 0; // served while the import still ran (its progress bar showing)
        connect(&ping, &QTimer::timeout, this, [&] {
            maxProgress = std::max(maxProgress, bar->value());
            pingsDuringImport += bar->isVisible() && opened.isEmpty();
        });
        QElapsedTimer wall;
        wall.start();
        ping.start();
        QVERIFY(w.openTrace(googlePart0()));
        QVERIFY(bar->isVisible()); // progress shows while the import runs
        QVERIFY(opened.wait(300000));
        ping.stop();
        QVERIFY2(opened[0][0].toBool(), qPrintable(opened[0][1].toString()));
        qInfo("import of Google part 0: %.2f s wall, %d pings of the GUI event loop, longest gap %lld ms, progress reached %d/1000",
            wall.elapsed() / 1000.0, pings, maxGapMs, maxProgress);
        // A loop blocked by the import serves no timer until the import has ended; the figures above
        // are the measure of responsiveness (printed, not asserted: they depend on the machine).
        QVERIFY(pingsDuringImport >= 1);
        QVERIFY(maxProgress > 0 && maxProgress <= 1000);
        QVERIFY(!bar->isVisible());
    }

    void cancelStopsTheImport()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QSignalSpy opened(&w, &app::MainWindow::traceOpened);
        QVERIFY(w.openTrace(googlePart0()));
        auto* cancel = w.findChild<QPushButton*>("cancelButton");
        QVERIFY(cancel && cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton); // while the worker has barely started
        QVERIFY(opened.wait(300000));
        QCOMPARE(opened[0][0].toBool(), false);
        QVERIFY(opened[0][1].toString().isEmpty()); // cancel is not an error
        QVERIFY(w.bannerText().isEmpty());
        QVERIFY(w.results().empty());
    }
};

QTEST_MAIN(TestImportResponsive)
#include "test_import_responsive.moc"
