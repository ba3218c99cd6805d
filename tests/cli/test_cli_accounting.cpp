// `schedlab-cli` on accounting logs: --timezone and --sacct-fields checked before any work, the
// logged replay's divergence line, and the epoch an sacct log gets from its zone.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include "cli_run.h"

#include <QtTest>

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args) { return schedlab::test::runCli(args, 120000); }
QString write(const QTemporaryDir& dir, const char* name, const char* text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
    return path;
}
// Job 2 started (per the log) 10 s before it was submitted: the one divergence.
const char* const kLog = "JobID|Submit|Start|End|State|NCPUS|NodeList\n"
                         "1|2024-01-01T00:00:00|2024-01-01T00:00:05|2024-01-01T00:10:05|COMPLETED|2|cn1\n"
                         "2|2024-01-01T00:01:00|2024-01-01T00:00:50|2024-01-01T00:05:50|COMPLETED|1|cn1\n";
} // namespace

class TestCliAccounting : public QObject {
    Q_OBJECT
private slots:
    void optionsCheckedFirst()
    {
        QTemporaryDir dir;
        const QString log = write(dir, "sacct.txt", kLog);
        Run r = cli({ "info", log, "--timezone", "Mars" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--timezone: unknown time zone 'Mars'"), r.err.constData());
        r = cli({ "replay", log, "--mode", "timed", "--timezone", "Mars" });
        QCOMPARE(r.code, 2);
        r = cli({ "info", log, "--timezone", "UTC-06:00", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject info = QJsonDocument::fromJson(r.out).object();
        // 2024-01-01T00:00:00 at UTC-6 = 06:00 UTC
        QCOMPARE(info["metadata"].toObject()["epoch.unixS"].toString(), QStringLiteral("1704088800"));
    }

    void headerlessNeedsFields()
    {
        QTemporaryDir dir;
        const QString log = write(dir, "plain.txt", "7|2024-01-01T00:00:00|COMPLETED|cn1\n");
        Run r = cli({ "info", log });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("plain.txt:1:") && r.err.contains("--sacct-fields"), r.err.constData());
        r = cli({ "info", log, "--sacct-fields", "JobID,Submit,State,NodeList" });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("jobs: 1"));
        // sacct --delimiter output without a header: --sacct-delimiter, checked before any work.
        const QString tabbed = write(dir, "tabbed.txt", "7\t2024-01-01T00:00:00\tCOMPLETED\tcn1\n");
        r = cli({ "info", tabbed, "--sacct-fields", "JobID,Submit,State,NodeList", "--sacct-delimiter", "\\t" });
        QVERIFY2(r.code == 0 && r.out.contains("jobs: 1"), r.err.constData());
        r = cli({ "info", tabbed, "--sacct-delimiter", "ab" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--sacct-delimiter: 'ab' is not one punctuation character"), r.err.constData());
    }

    void loggedReplayNamesDivergences()
    {
        QTemporaryDir dir;
        const QString log = write(dir, "sacct.txt", kLog);
        // Reading it already says so, with the row's line and column.
        Run info = cli({ "info", log });
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains("sacct.txt:3") && info.out.contains("Start") && info.out.contains("starts 10 s before it was submitted"),
            info.out.constData());
        Run r = cli({ "replay", log, "--mode", "timed", "--policy", "logged,firstfit", "--from", "0" });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("logged: 1 decisions of the log the model cannot reproduce (start-before-submit 1); the first: "
                                "start-before-submit: job 2 (id 2) at 60 s: logged start 50 s is before its submit 60 s"),
            r.out.constData());
        r = cli({ "replay", log, "--mode", "timed", "--policy", "logged", "--from", "0", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject run = QJsonDocument::fromJson(r.out).object()["runs"].toArray().at(0).toObject();
        QCOMPARE(run["divergences"].toObject()["start-before-submit"].toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliAccounting)
#include "test_cli_accounting.moc"
