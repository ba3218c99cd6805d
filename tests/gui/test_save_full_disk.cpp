// Save Project when the disk takes no more (#19): the process's file-size limit (RLIMIT_FSIZE, no
// root needed) makes every write past 32 KiB fail as a full disk would. The banner names the
// problem, the unsaved runs stay in the session, and Save Project As elsewhere (with room again)
// stores them all.

#include "open_and_wait.h"

#include "main_window.h"
#include "store/project.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>

using namespace schedlab;
using schedlab::test::openAndWait;

class TestSaveFullDisk : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests-full-disk");
        std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead of killing us
    }

    void savingOntoAFullDiskLosesNothing()
    {
        QTemporaryDir dir;
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit", "bestfit" });
        QVERIFY(done.wait(300000));
        QCOMPARE(int(w.results().size()), 2);
        QVERIFY(w.hasUnsavedRuns());

        rlimit old {};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &old) == 0);
        rlimit small = old;
        small.rlim_cur = 32 * 1024;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        const bool saved = w.saveProjectAs(dir.filePath("full.schedlab"));
        QVERIFY(setrlimit(RLIMIT_FSIZE, &old) == 0);
        QVERIFY(!saved);
        const QString banner = w.bannerText();
        QVERIFY2(banner.contains("disk", Qt::CaseInsensitive) || banner.contains("full", Qt::CaseInsensitive)
                || banner.contains("write", Qt::CaseInsensitive),
            qPrintable(banner));
        qInfo("banner: %s", qPrintable(banner));
        QVERIFY(w.hasUnsavedRuns()); // nothing lost: the runs are still the session's
        for (const auto& r : w.results())
            QCOMPARE(r.storedId, int64_t(-1));

        // With room again, elsewhere: every run is stored and reads back.
        const QString elsewhere = dir.filePath("elsewhere.schedlab");
        QVERIFY(w.saveProjectAs(elsewhere));
        QVERIFY(!w.hasUnsavedRuns());
        auto p = store::Project::open(elsewhere.toStdString(), store::Project::OpenMode::ReadOnly);
        QVERIFY(p.ok());
        auto runs = p.value()->runs();
        QVERIFY(runs.ok());
        QCOMPARE(int(runs.value().size()), 2);
        for (const auto& r : runs.value())
            QCOMPARE(r.status, std::string("finished"));
    }
};

QTEST_MAIN(TestSaveFullDisk)
#include "test_save_full_disk.moc"
