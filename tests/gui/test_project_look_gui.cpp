// Opening a project in the workbench only to look writes nothing: a round whose training process
// was killed is shown as interrupted (not marked failed), and a project of an older schedlab is not
// migrated (its bytes are unchanged), also with --screenshot; the first write migrates it.

#include "test_util.h"

#include "main_window.h"
#include "training_panel.h"

#include "store/project.h"

#include <QCryptographicHash>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QStatusBar>
#include <QTreeWidget>
#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace schedlab;

namespace {
/// The project file and its write-ahead log.
QByteArray digest(const QString& project) { return schedlab::test::projectDigest(project.toStdString()); }

/// A project with a finished round and a round whose writer (a child process) was killed with
/// SIGKILL while training; `schema` < current: downgraded as an older build left it.
bool makeProject(const QString& file, int schema)
{
    {
        auto p = store::Project::open(file.toStdString());
        if (!p)
            return false;
        const int64_t r = p.value()->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 1, 1e-3, "balance=1", 1, "{}" }).value();
        if (!p.value()->finishRound(r, "/nonexistent/round-1.slq", "abc", { { 1, 0.5, 0.1, 0.9, 12.5, 0.3, 1.0, 100 } },
                {}, 1.0))
            return false;
    }
    const pid_t child = ::fork();
    if (child == 0) {
        auto p = store::Project::open(file.toStdString());
        if (p)
            (void)p.value()->beginRound({ 1, -1, store::RoundKind::Fill, "all pods", 50, 1e-3, "balance=1", 2, "{}" });
        ::raise(SIGKILL);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (schema == store::kSchemaVersion)
        return true;
    const QString sql = QString("import sqlite3; c=sqlite3.connect('%1'); c.execute('alter table runs drop column pid_start'); "
                                "c.execute('alter table rounds drop column pid_start'); c.execute('alter table rounds drop column start_validation'); "
                                "c.execute('alter table round_curves drop column validation'); "
                                "c.execute(\"update meta set value='%2' where key='schema_version'\"); c.commit()")
                            .arg(file)
                            .arg(schema);
    if (QProcess::execute("python3", { "-c", sql }) != 0)
        return false;
    return store::Project::open(file.toStdString(), store::Project::OpenMode::ReadOnly).ok(); // the log merged: bytes settle
}

QString statusText(QWidget& w)
{
    QStringList texts;
    for (QLabel* l : w.findChildren<QStatusBar*>().value(0)->findChildren<QLabel*>())
        texts << l->text();
    return texts.join('\n');
}
} // namespace

class TestProjectLookGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks");
    }

    void killedRoundIsShownInterrupted()
    {
        const QString file = m_dir.filePath("current.schedlab");
        QVERIFY(makeProject(file, store::kSchemaVersion));
        const QByteArray before = digest(file);
        {
            app::MainWindow w;
            w.setInteractive(false);
            w.show();
            QVERIFY(w.openProject(file));
            QTreeWidget* tree = w.trainingPanel()->lineage();
            QCOMPARE(tree->topLevelItemCount(), 1);
            QTreeWidgetItem* root = tree->topLevelItem(0);
            QCOMPARE(root->text(1), QString("finished"));
            QCOMPARE(root->childCount(), 1);
            QCOMPARE(root->child(0)->text(1), QString("interrupted"));
            QVERIFY(root->child(0)->text(5).contains("interrupted (the process training it stopped"));
        }
        QCOMPARE(digest(file), before);
    }

    void olderProjectIsNotMigratedByLooking()
    {
        const QString file = m_dir.filePath("older.schedlab");
        QVERIFY(makeProject(file, 10));
        const QByteArray before = digest(file);
        {
            app::MainWindow w;
            w.setInteractive(false);
            w.show();
            QVERIFY(w.openProject(file));
            QVERIFY2(statusText(w).contains("older schedlab (schema 10)"), qPrintable(statusText(w)));
            QCOMPARE(w.trainingPanel()->lineage()->topLevelItem(0)->child(0)->text(1), QString("interrupted"));
        }
        QCOMPARE(digest(file), before);
        // The whole application, as a user opening it to look (and as --screenshot does).
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        const QString shot = m_dir.filePath("older.png");
        p.start(QStringLiteral(SCHEDLAB_GUI), { "--screenshot", shot, "--tab", "training", file });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFile::exists(shot));
        QCOMPARE(digest(file), before);
        auto after = store::Project::open(file.toStdString(), store::Project::OpenMode::ReadOnly);
        QCOMPARE(after.value()->schemaVersion(), 10);
        QCOMPARE(after.value()->rounds().value().at(1).status, std::string("interrupted"));
    }
};

QTEST_MAIN(TestProjectLookGui)
#include "test_project_look_gui.moc"
