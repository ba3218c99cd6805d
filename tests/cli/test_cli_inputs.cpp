// schedlab-cli on inputs that are not plain files with plain names: a trace on standard input
// (info, replay into a project) and a file name that is not UTF-8.

#include "cli_run.h"
#include "test_util.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args) { return schedlab::test::runCli(args, 120000); }
} // namespace

class TestCliInputs : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void standardInputIsATraceToo()
    {
        const QString sample = QStringLiteral(SCHEDLAB_TEST_DATA "/../../samples/sample.sltrace");
        QFile f(sample);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        auto piped = [&](const QStringList& args) {
            QProcess p;
            p.start(QStringLiteral(SCHEDLAB_CLI), args);
            p.write(bytes);
            p.closeWriteChannel();
            p.waitForFinished(120000);
            return Run { p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError() };
        };
        Run in = piped({ "info", "-", "--json" });
        QVERIFY2(in.code == 0, in.err.constData());
        Run file = cli({ "info", sample, "--json" });
        const QJsonObject a = QJsonDocument::fromJson(in.out).object(), b = QJsonDocument::fromJson(file.out).object();
        QVERIFY(b["jobs"]["count"].toInt() >= 1000);
        QCOMPARE(a["jobs"]["count"].toInt(), b["jobs"]["count"].toInt());
        QCOMPARE(a["tasks"]["count"].toInt(), b["tasks"]["count"].toInt());
        QCOMPARE(a["tasks"]["gpuMilli"].toDouble(), b["tasks"]["gpuMilli"].toDouble());
        QCOMPARE(a["nodes"]["count"].toInt(), b["nodes"]["count"].toInt());
        QCOMPARE(a["files"].toArray()[0].toObject()["path"].toString(), QString("(stdin)"));
        const QString project = m_dir.filePath("stdin.schedlab");
        Run rep = piped({ "replay", "-", "--mode", "timed", "--policy", "firstfit", "--project", project });
        QVERIFY2(rep.code == 0, rep.err.constData());
        Run runs = cli({ "runs", "--project", project, "--json" });
        QCOMPARE(QJsonDocument::fromJson(runs.out).object()["runs"].toArray().size(), 1);
    }

    // A file name that is not UTF-8 (Linux paths are bytes): replayed into a project, reopened from
    // the project (its stored path), and named exactly in info --json (pathBase64).
    void nonUtf8FileNames()
    {
        const QString sample = QStringLiteral(SCHEDLAB_TEST_DATA "/../../samples/sample.sltrace");
        // Through a shell: QProcess arguments are text and cannot carry the byte 0xff.
        const QString script = QStringLiteral(
            "set -e; cd \"$DIR\"; name=$(printf 'sa\\377.sltrace'); cp \"$SAMPLE\" \"$name\"; "
            "\"$CLI\" replay \"$name\" --mode timed --policy firstfit --project bytes.schedlab > /dev/null; "
            "\"$CLI\" decisions --project bytes.schedlab --run 1 --index 3 > decision.txt; "
            "\"$CLI\" info --json \"$name\" > info.json");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("DIR", m_dir.path());
        env.insert("SAMPLE", sample);
        env.insert("CLI", QStringLiteral(SCHEDLAB_CLI));
        p.setProcessEnvironment(env);
        p.start("/bin/sh", { "-c", script });
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile decision(m_dir.filePath("decision.txt")), info(m_dir.filePath("info.json"));
        QVERIFY(decision.open(QIODevice::ReadOnly) && info.open(QIODevice::ReadOnly));
        QVERIFY(decision.readAll().contains("decision 3 of"));
        const QJsonObject file = QJsonDocument::fromJson(info.readAll()).object()["files"].toArray()[0].toObject();
        QCOMPARE(QByteArray::fromBase64(file["pathBase64"].toString().toLatin1()), QByteArray("sa\xff.sltrace"));
    }

    // The Google 2011 task_events part 0 (450,146 rows, gzip) decompressed into a pipe: the same
    // counts as the file read directly (detection must not eat the start of the stream).
    void googlePartThroughAPipe()
    {
        const std::string part = schedlab::test::realTrace("google-2011/task_events/part-00000-of-00500.csv.gz");
        if (part.empty() || !QFile::exists(QString::fromStdString(part)))
            QSKIP("the real traces are not here (../shared/traces)");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PART", QString::fromStdString(part));
        env.insert("CLI", QStringLiteral(SCHEDLAB_CLI));
        p.setProcessEnvironment(env);
        p.start("/bin/sh", { "-c", "zcat \"$PART\" | \"$CLI\" info - --json" });
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject piped = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const Run file = cli({ "info", QString::fromStdString(part), "--json" });
        QVERIFY2(file.code == 0, file.err.constData());
        const QJsonObject direct = QJsonDocument::fromJson(file.out).object();
        QCOMPARE(piped["jobs"]["count"].toInt(), 4895);
        QCOMPARE(piped["jobs"]["count"].toInt(), direct["jobs"]["count"].toInt());
        QCOMPARE(piped["tasks"]["count"].toInt(), direct["tasks"]["count"].toInt());
        QCOMPARE(piped["warnings"]["total"].toInt(), direct["warnings"]["total"].toInt());
    }

    // Endless streams: refused on their first MiB when no format claims them, stopped at the cap
    // (--max-stream) when one does, and never a temporary file left behind, even after kill -9.
    void endlessStreamsAreBounded()
    {
        QTemporaryDir tmp;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("TMPDIR", tmp.path());
        env.insert("CLI", QStringLiteral(SCHEDLAB_CLI));
        auto shell = [&](const QString& script) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start("/bin/sh", { "-c", script });
            p.waitForFinished(120000);
            return Run { p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError() };
        };
        Run zero = shell("\"$CLI\" info /dev/zero");
        QVERIFY(zero.code != 0);
        QVERIFY2(zero.err.contains("/dev/zero") && zero.err.contains("format"), zero.err.constData());

        const QString swf = "(echo '; MaxProcs: 64'; yes '1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1')";
        Run capped = shell(swf + " | \"$CLI\" info - --max-stream 3M");
        QVERIFY(capped.code != 0);
        QVERIFY2(capped.err.contains("(stdin)") && capped.err.contains("stopped reading after 3.0 MiB") && capped.err.contains("--max-stream"),
            capped.err.constData());
        QVERIFY(shell("\"$CLI\" info - --max-stream lots < /dev/null").err.contains("--max-stream takes a size"));

        // Killed while copying: nothing named was ever created in TMPDIR.
        Run killed = shell(swf + " | \"$CLI\" info - --max-stream 1T & pid=$!; sleep 1; "
                                 "ls -A \"$TMPDIR\" > \"$TMPDIR/../listing-$$\"; kill -9 $pid; wait $pid; "
                                 "cat \"$TMPDIR/../listing-$$\"; rm -f \"$TMPDIR/../listing-$$\"; ls -A \"$TMPDIR\"");
        QCOMPARE(killed.out, QByteArray()); // during the copy and after the kill: an empty folder
    }
};

QTEST_GUILESS_MAIN(TestCliInputs)
#include "test_cli_inputs.moc"
