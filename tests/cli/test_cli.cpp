// schedlab-cli as a user runs it: exit codes, stable --json output, errors on stderr.

#include "cli_run.h"
#include "test_util.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using schedlab::test::dataPath;

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    return schedlab::test::runCli(args, 120000, env);
}
QString data(const char* rel) { return QString::fromStdString(dataPath(rel)); }

// A JSON value without its wall-clock keys ("seconds", "simSeconds"): what a golden file holds.
QJsonValue withoutClock(const QJsonValue& v)
{
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue& x : v.toArray())
            out.append(withoutClock(x));
        return out;
    }
    if (!v.isObject())
        return v;
    QJsonObject out;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != "seconds" && it.key() != "simSeconds")
            out.insert(it.key(), withoutClock(it.value()));
    return out;
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void replayJsonMatchesGoldenFiles_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("golden");
        QTest::newRow("fill openb") << QStringList { "--mode", "fill", "--policy", "bestfit,fgd", "--seeds", "3", data("tiny/nodes.csv"),
            data("tiny/pods.csv") } << "replay_fill_openb.expected";
        QTest::newRow("timed swf easy") << QStringList { "--mode", "timed", "--policy", "firstfit", "--backfill", "easy", "--queue", "sjf",
            data("tiny/jobs.swf") } << "replay_timed_swf.expected";
        QTest::newRow("timed sample") << QStringList { "--mode", "timed", "--policy", "bestfit,k8s-default", "--tick", "3600",
            QStringLiteral(SCHEDLAB_SAMPLE) } << "replay_timed_sample.expected";
    }
    void replayJsonMatchesGoldenFiles()
    {
        // The whole replay output (docs/cli-json.md) but its wall-clock fields, as golden files:
        // a change in any metric, series point or unit result shows as a diff.
        QFETCH(QStringList, args);
        QFETCH(QString, golden);
        Run r = cli(QStringList { "replay", "--json" } + args);
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        const QByteArray text = QJsonDocument(withoutClock(doc.object()).toObject()).toJson(QJsonDocument::Indented);
        const std::string diff = schedlab::test::compareGolden("golden/" + golden.toStdString(), text.toStdString());
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void bashCompletionOffersWhatTheCommandsAccept()
    {
        Run r = cli({ "completion", "bash" });
        QCOMPARE(r.code, 0);
        const QString script = m_dir.filePath("completion.bash");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(r.out);
        f.close();
        auto complete = [&](const QStringList& words) {
            QProcess bash;
            bash.start("bash", { "-c", QStringLiteral("source '%1'; COMP_WORDS=(%2); COMP_CWORD=%3; _schedlab_cli; echo \"${COMPREPLY[*]}\"")
                                         .arg(script, words.join(' '))
                                         .arg(words.size() - 1) });
            bash.waitForFinished(30000);
            return QString::fromUtf8(bash.readAllStandardOutput()).trimmed();
        };
        QCOMPARE(complete({ "schedlab-cli", "rep" }), QString("replay"));
        QCOMPARE(complete({ "schedlab-cli", "replay", "--back" }), QString("--backfill"));
        QVERIFY(complete({ "schedlab-cli", "train", "--" }).contains("--wait-action"));
        // every option offered for replay and train is one the command accepts
        for (const QString& command : { QString("replay"), QString("train") }) {
            const QStringList offered = complete({ "schedlab-cli", command, "--" }).split(' ', Qt::SkipEmptyParts);
            QVERIFY(offered.size() > 10);
            for (const QString& option : offered) {
                if (option == "--help")
                    continue;
                Run o = cli({ command, option });
                QVERIFY2(!o.err.contains("unknown option"), qPrintable(command + " " + option + ": " + o.err));
            }
        }
        QCOMPARE(cli({ "completion", "zsh" }).code, 2);
    }

    // Help, completion and parser read one command table: every option the completion offers for
    // any command or subcommand is one it accepts, and its help lists it.
    void everyCommandAcceptsWhatItsCompletionOffers()
    {
        Run r = cli({ "completion", "bash" });
        QCOMPARE(r.code, 0);
        const QString script = m_dir.filePath("completion-all.bash");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(r.out);
        f.close();
        auto complete = [&](const QStringList& words) {
            QProcess bash;
            bash.start("bash", { "-c", QStringLiteral("source '%1'; COMP_WORDS=(%2); COMP_CWORD=%3; _schedlab_cli; echo \"${COMPREPLY[*]}\"")
                                         .arg(script, words.join(' '))
                                         .arg(words.size() - 1) });
            bash.waitForFinished(30000);
            return QString::fromUtf8(bash.readAllStandardOutput()).trimmed().split(' ', Qt::SkipEmptyParts);
        };
        QStringList commands;
        for (const QString& c : complete({ "schedlab-cli", "''" }))
            if (c != "sweep") // subcommands only: listed below
                commands << c;
        QVERIFY(commands.size() > 15 && commands.contains("replay") && commands.contains("autoscale"));
        commands << "sweep plan" << "sweep run" << "sweep merge" << "sweep status" << "sweep emit" << "bench seek" << "bench autoscale";
        for (const QString& command : commands) {
            const QStringList words = command.split(' ');
            const QStringList offered = complete(QStringList { "schedlab-cli" } + words + QStringList { "--" });
            QVERIFY2(offered.contains("--help"), qPrintable(command));
            const QByteArray help = cli(words + QStringList { "--help" }).out;
            for (const QString& option : offered) {
                if (option == "--help")
                    continue;
                QVERIFY2(help.contains(option.toUtf8()), qPrintable(command + " --help does not list " + option));
                Run o = cli(words + QStringList { option });
                QVERIFY2(!o.err.contains("unknown option"), qPrintable(command + " " + option + ": " + o.err));
            }
        }
    }

    void infoJsonOnTinyOpenb()
    {
        Run r = cli({ "info", "--json", data("tiny/nodes.csv"), data("tiny/pods.csv") });
        QCOMPARE(r.code, 0);
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &pe).object();
        QCOMPARE(pe.error, QJsonParseError::NoError);
        QCOMPARE(o["schema"].toString(), QString("schedlab.info/1"));
        QCOMPARE(o["format"].toString(), QString("openb"));
        QCOMPARE(o["nodes"]["count"].toInt(), 3);
        QCOMPARE(o["nodes"]["gpus"].toInt(), 10);
        QCOMPARE(o["nodes"]["cpuMilli"].toInt(), 192000);
        QCOMPARE(o["nodes"]["gpusByModel"]["V100M32"].toInt(), 8);
        QCOMPARE(o["jobs"]["count"].toInt(), 4);
        QCOMPARE(o["tasks"]["gpuShare"].toInt(), 2);
        QCOMPARE(o["tasks"]["cpuOnly"].toInt(), 1);
        QCOMPARE(o["tasks"]["byNumGpu"]["2"].toInt(), 1);
        // run times 95, 50 (p2, p3 unknown): nearest-rank p50 of {50, 95} is 50
        QCOMPARE(o["tasks"]["runTimeS"]["p50"].toDouble(), 50.0);
        QCOMPARE(o["tasks"]["runTimeS"]["max"].toDouble(), 95.0);
        QCOMPARE(o["time"]["firstSubmitS"].toDouble(), 0.0);
        QCOMPARE(o["time"]["lastSubmitS"].toDouble(), 50.0);
        QCOMPARE(o["warnings"]["total"].toInt(), 0);
        QCOMPARE(o["files"].toArray().size(), 2);
    }

    void infoTextShowsWarningsWithLines()
    {
        Run r = cli({ "info", data("tiny/jobs.swf") });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("jobs.swf:9: column run_time: run time 0 <= 0"), r.out.constData());
        QVERIFY(r.out.contains("run-time-not-positive: 1"));
        QVERIFY(r.out.contains("note requested-time-fallback: 1"));
    }

    void errorsNameFileLineAndColumn()
    {
        const std::string bad = schedlab::test::writeFile(m_dir, "pods.csv",
            "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,1,0,0\np1,abc,1,0,0\n");
        Run strict = cli({ "info", "--strict", QString::fromStdString(bad) });
        QCOMPARE(strict.code, 1);
        QVERIFY2(strict.err.contains("pods.csv:3: column cpu_milli: 'abc' is not a number"), strict.err.constData());

        Run json = cli({ "info", "--json", data("tiny/nope.csv") });
        QCOMPARE(json.code, 1);
        const QJsonObject e = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(e["schema"].toString(), QString("schedlab.error/1"));
        QCOMPARE(e["code"].toString(), QString("io"));
        QVERIFY(json.err.contains("nope.csv: cannot open"));
    }

    void usageErrors()
    {
        QCOMPARE(cli({}).code, 2);
        QCOMPARE(cli({ "frobnicate" }).code, 2);
        QCOMPARE(cli({ "info", "--bogus", data("tiny/jobs.swf") }).code, 2);
        QCOMPARE(cli({ "info" }).code, 2);
        QCOMPARE(cli({ "info", "--procs-per-node", "x", data("tiny/jobs.swf") }).code, 2);
        QCOMPARE(cli({ "--help" }).code, 0);
    }

    void convertThenInfoAgrees()
    {
        const QString out = m_dir.filePath("tiny.sltrace");
        Run c = cli({ "convert", data("tiny/machine_events.csv"), data("tiny/task_events.csv"), "--out", out });
        QCOMPARE(c.code, 0);
        QVERIFY(c.out.contains("2 nodes, 2 jobs, 3 tasks"));
        Run a = cli({ "info", "--json", data("tiny/machine_events.csv"), data("tiny/task_events.csv") });
        Run b = cli({ "info", "--json", out });
        QJsonObject ja = QJsonDocument::fromJson(a.out).object(), jb = QJsonDocument::fromJson(b.out).object();
        QCOMPARE(jb["format"].toString(), QString("google2011"));
        for (const char* key : { "nodes", "jobs", "tasks", "time", "cpuUnit" })
            QCOMPARE(jb[key], ja[key]);
    }

    void generateIsDeterministic()
    {
        const QString a = m_dir.filePath("a.sltrace"), b = m_dir.filePath("b.sltrace"), c = m_dir.filePath("c.sltrace");
        QCOMPARE(cli({ "generate", "--nodes", "8", "--jobs", "200", "--seed", "5", "--out", a }).code, 0);
        QCOMPARE(cli({ "generate", "--nodes", "8", "--jobs", "200", "--seed", "5", "--out", b }).code, 0);
        QCOMPARE(cli({ "generate", "--nodes", "8", "--jobs", "200", "--seed", "6", "--out", c }).code, 0);
        const std::string ta = schedlab::test::readFile(a.toStdString());
        QVERIFY(!ta.empty());
        QCOMPARE(ta, schedlab::test::readFile(b.toStdString()));
        QVERIFY(ta != schedlab::test::readFile(c.toStdString()));
        QCOMPARE(cli({ "generate", "--nodes", "0", "--jobs", "5", "--out", a }).code, 2);
    }

    void replayFillJson()
    {
        Run r = cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy",
            "bestfit,fgd", "--seeds", "1-2", "--ratio", "1.0", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["schema"].toString(), QString("schedlab.replay/1"));
        QCOMPARE(o["mode"].toString(), QString("fill"));
        const QJsonArray runs = o["runs"].toArray();
        QCOMPARE(runs.size(), 4); // 2 policies x 2 seeds
        QCOMPARE(runs[0].toObject()["policy"].toString(), QString("bestfit"));
        QCOMPARE(runs[1].toObject()["seed"].toInt(), 2);
        for (const QJsonValue& v : runs) {
            const QJsonObject run = v.toObject();
            const QJsonArray curve = run["curve"].toArray();
            QVERIFY(!curve.isEmpty());
            QCOMPARE(curve.first().toObject()["arrivedPct"].toInt(), 1);
            QCOMPARE(run["placed"].toInt() + run["failed"].toInt(), run["pods"].toInt());
        }
    }

    void replayTimedIsByteIdentical()
    {
        // Same trace, policy and seed: identical output once the wall-clock fields are removed.
        auto strip = [](QByteArray json) {
            QJsonObject o = QJsonDocument::fromJson(json).object();
            QJsonArray runs = o["runs"].toArray();
            for (int i = 0; i < runs.size(); ++i) {
                QJsonObject run = runs[i].toObject();
                run.remove("simSeconds");
                run.remove("seconds");
                runs[i] = run;
            }
            o["runs"] = runs;
            return QJsonDocument(o).toJson(QJsonDocument::Compact);
        };
        const QStringList args { "replay", data("tiny/jobs.swf"), "--mode", "timed", "--policy", "random,bestfit",
            "--seeds", "3", "--backfill", "easy", "--json" };
        Run a = cli(args), b = cli(args);
        QCOMPARE(a.code, 0);
        QCOMPARE(strip(a.out), strip(b.out));
        const QJsonObject run = QJsonDocument::fromJson(a.out).object()["runs"].toArray()[0].toObject();
        // tiny/jobs.swf on 8 processors: 4 jobs run, job 4 (16 procs) can never run
        QCOMPARE(run["units"].toInt(), 4);
        QCOMPARE(run["failed"].toInt(), 1);
        QCOMPARE(run["completed"].toInt(), 3);
        QVERIFY(!run["series"].toArray().isEmpty());
    }

    void replayIntoProjectAndListRuns()
    {
        const QString project = m_dir.filePath("p.schedlab");
        QCOMPARE(cli({ "replay", data("tiny/jobs.swf"), "--mode", "timed", "--policy", "firstfit", "--project", project })
                     .code,
            0);
        QCOMPARE(cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy", "fgd",
                         "--project", project })
                     .code,
            0);
        Run r = cli({ "runs", "--project", project, "--json" });
        QCOMPARE(r.code, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out).object()["runs"].toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].toObject()["mode"].toString(), QString("timed"));
        QCOMPARE(runs[0].toObject()["status"].toString(), QString("finished"));
        QCOMPARE(runs[0].toObject()["summary"].toObject()["completed"].toInt(), 3);
        QCOMPARE(runs[1].toObject()["policy"].toString(), QString("fgd"));
        QVERIFY(runs[1].toObject()["summary"].toObject().contains("finalGpuAllocPct"));
        // a text file is not a project: clear error, file untouched
        const std::string notes = schedlab::test::writeFile(m_dir, "notes.schedlab", "my notes\n");
        Run bad = cli({ "runs", "--project", QString::fromStdString(notes) });
        QCOMPARE(bad.code, 1);
        QVERIFY(bad.err.contains("not a schedlab project"));
        QCOMPARE(schedlab::test::readFile(notes), std::string("my notes\n"));
    }

    void replayUsageErrors()
    {
        QCOMPARE(cli({ "replay", data("tiny/jobs.swf"), "--policy", "nope" }).code, 2);
        QCOMPARE(cli({ "replay", data("tiny/jobs.swf"), "--mode", "sideways" }).code, 2);
        QCOMPARE(cli({ "replay", data("tiny/jobs.swf"), "--queue", "lifo" }).code, 2);
        QCOMPARE(cli({ "replay", data("tiny/jobs.swf"), "--seeds", "9-1" }).code, 2);
        Run noGpu = cli({ "replay", data("tiny/jobs.swf"), "--mode", "fill" });
        QCOMPARE(noGpu.code, 1);
        QVERIFY(noGpu.err.contains("needs a cluster with GPUs"));
        Run policies = cli({ "policies", "--json" });
        QCOMPARE(policies.code, 0);
        const QJsonObject p = QJsonDocument::fromJson(policies.out).object();
        QCOMPARE(p["placement"].toArray().size(), 12);
        QCOMPARE(p["queue"].toArray().size(), 7);
    }

    // Fine-tune rounds from the command line: two rounds in a project, the lineage, evaluation,
    // TorchScript export, and replaying both model kinds as policies.
    void trainEvalExportAndReplayModels()
    {
        const QString trace = m_dir.filePath("train.sltrace"), project = m_dir.filePath("t.schedlab");
        QCOMPARE(cli({ "generate", "--nodes", "24", "--jobs", "600", "--seed", "5", "--out", trace }).code, 0);
        Run t = cli({ "train", trace, "--mode", "fill", "--rounds", "2", "--episodes", "1", "--pods", "200", "--eval-seeds",
            "42-43", "--baselines", "bestfit,random", "--weights", "balance=0.2,packing=0.6", "--project", project, "--json" });
        QVERIFY2(t.code == 0, t.err.constData());
        const QJsonArray rounds = QJsonDocument::fromJson(t.out).object()["rounds"].toArray();
        QCOMPARE(rounds.size(), 2);
        const QJsonObject r1 = rounds[0].toObject(), r2 = rounds[1].toObject();
        QCOMPARE(r1["parent"].toInt(), -1);
        QCOMPARE(r2["parent"].toInt(), r1["round"].toInt());
        QCOMPARE(r1["episodes"].toArray().size(), 1);
        const QJsonObject eval = r2["eval"].toObject();
        for (const char* policy : { "learned", "bestfit", "random" })
            QVERIFY2(eval[policy].toObject().contains("finalGpuAllocPct"), policy);
        const QString checkpoint = r2["checkpoint"].toString();
        QVERIFY(QFile::exists(checkpoint));
        QVERIFY(checkpoint.startsWith(project + ".models/round-"));

        Run list = cli({ "rounds", "--project", project, "--json" });
        QCOMPARE(list.code, 0);
        const QJsonArray stored = QJsonDocument::fromJson(list.out).object()["rounds"].toArray();
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored[1].toObject()["status"].toString(), QString("finished"));
        QVERIFY(stored[1].toObject()["weights"].toString().startsWith("balance=0.2,packing=0.6"));

        // fine-tune from a stored round by its id
        Run more = cli({ "train", trace, "--mode", "fill", "--episodes", "1", "--pods", "100", "--eval-seeds", "42",
            "--baselines", "bestfit", "--parent", QString::number(r2["round"].toInt()), "--project", project, "--json" });
        QVERIFY2(more.code == 0, more.err.constData());
        QCOMPARE(QJsonDocument::fromJson(more.out).object()["rounds"].toArray()[0].toObject()["parent"].toInt(), r2["round"].toInt());
        QCOMPARE(cli({ "train", trace, "--parent", "99", "--project", project }).code, 1);
        QCOMPARE(cli({ "train", trace, "--weights", "balance=-1", "--project", project }).code, 2);

        // A weight sweep: one fresh lineage per vector in the project, listed with the baselines and
        // the Pareto front; refused without a project and for a bad range, before any training.
        const int before = int(stored.size()) + 1;
        Run sw = cli({ "train", trace, "--mode", "fill", "--episodes", "1", "--pods", "100", "--eval-seeds", "42", "--baselines",
            "bestfit", "--sweep", "weights=packing=1;balance=1", "--project", project });
        QVERIFY2(sw.code == 0, sw.err.constData());
        QVERIFY2(sw.out.contains("weight sweep") && sw.out.contains("balance=0.4,packing=1,success=0.2,custom=0.1")
                && sw.out.contains("balance=1,packing=0.3,success=0.2,custom=0.1") && sw.out.contains("\n* "),
            sw.out.constData());
        const QJsonArray after = QJsonDocument::fromJson(cli({ "rounds", "--project", project, "--json" }).out).object()["rounds"].toArray();
        QCOMPARE(int(after.size()), before + 2);
        QCOMPARE(after[before].toObject()["parent"].toInt(), -1); // each vector its own lineage
        QCOMPARE(after[before + 1].toObject()["parent"].toInt(), -1);
        QCOMPARE(cli({ "train", trace, "--sweep", "weights=packing=1", "--out", m_dir.filePath("x.slq") }).code, 2);
        QCOMPARE(cli({ "train", trace, "--sweep", "weights=packing=2:1:1", "--project", project }).code, 2);
        QCOMPARE(cli({ "train", trace, "--sweep", "balance=1", "--project", project }).code, 2);

        // A round that keeps its best episode on validation seeds, with a teacher loss: the kept
        // episode is the one of highest validation; the lineage says so; bad values refused.
        Run v = cli({ "train", trace, "--mode", "fill", "--episodes", "3", "--pods", "100", "--eval-seeds", "42", "--baselines",
            "bestfit", "--validate", "7-8", "--teacher-loss", "fgd:0.5", "--project", project, "--json" });
        QVERIFY2(v.code == 0, v.err.constData());
        const QJsonObject vr = QJsonDocument::fromJson(v.out).object()["rounds"].toArray()[0].toObject();
        const QJsonArray ve = vr["episodes"].toArray();
        QCOMPARE(ve.size(), 3);
        // The starting weights are validated first (episode 0); an episode is kept only if it beats them.
        const double start = vr["startValidation"].toDouble(-1);
        QVERIFY(start > 0);
        int best = -1;
        double bestValue = start;
        for (int i = 0; i < 3; ++i) {
            QVERIFY(ve[i].toObject()["validation"].toDouble() > 0);
            if (ve[i].toObject()["validation"].toDouble() > bestValue)
                bestValue = ve[best = i].toObject()["validation"].toDouble();
        }
        QCOMPARE(vr["keptEpisode"].toInt(), best + 1);
        const QJsonArray listed = QJsonDocument::fromJson(cli({ "rounds", "--project", project, "--json" }).out).object()["rounds"].toArray();
        const QString window = listed.last().toObject()["window"].toString();
        QCOMPARE(listed.last().toObject()["keptEpisode"].toInt(), best + 1); // stored with the curve
        QCOMPARE(listed.last().toObject()["startValidation"].toDouble(), start);
        QCOMPARE(listed.last().toObject()["validation"].toArray().size(), 3);
        for (int i = 0; i < 3; ++i) // each episode's validation stored as trained
            QCOMPARE(listed.last().toObject()["validation"].toArray()[i].toDouble(), ve[i].toObject()["validation"].toDouble());
        QVERIFY2(window.startsWith("teacher loss fgd x0.5; 100 pods") && window.endsWith("best episode on validation seeds 7,8"),
            qPrintable(window));
        for (const QStringList& bad : { QStringList { "--validate", "x" }, QStringList { "--mode", "timed", "--wait-action", "--skip-action" },
                 QStringList { "--teacher-loss", "oracle" }, QStringList { "--teacher-loss", "fgd:-1" }, QStringList { "--teacher-loss", "fgd:" },
                 QStringList { "--blend", "0" }, QStringList { "--blend", "1.5" }, QStringList { "--blend", "half" } })
            QCOMPARE(cli(QStringList { "train", trace, "--project", project } + bad).code, 2);

        const QString pt = m_dir.filePath("model.pt");
        Run ex = cli({ "export-model", "--round", QString::number(r2["round"].toInt()), "--project", project, "--out", pt });
        QVERIFY2(ex.code == 0, ex.err.constData());
        Run e = cli({ "eval", trace, "--policy", "learned:" + checkpoint + ",torchscript:" + pt + ",bestfit", "--eval-seeds",
            "42", "--json" });
        QVERIFY2(e.code == 0, e.err.constData());
        const QJsonObject ev = QJsonDocument::fromJson(e.out).object()["eval"].toObject();
        // our checkpoint and its TorchScript export are the same scorer: same placements
        QCOMPARE(ev["learned:" + checkpoint].toObject()["finalGpuAllocPct"].toDouble(),
            ev["torchscript:" + pt].toObject()["finalGpuAllocPct"].toDouble());
        Run rep = cli({ "replay", trace, "--mode", "fill", "--policy", "torchscript:" + pt + ",bestfit", "--seeds", "42" });
        QVERIFY2(rep.code == 0, rep.err.constData());
        QVERIFY(rep.out.contains("torchscript:"));
        Run missing = cli({ "replay", trace, "--mode", "fill", "--policy", "learned:/nonexistent.slq" });
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("/nonexistent.slq"));

        // WiSE-FT: a round blended with its start says so in its window; blend-model interpolates
        // two checkpoints (t = 0: the first one's weights, so its placements).
        Run bl = cli({ "train", trace, "--mode", "fill", "--episodes", "1", "--pods", "100", "--eval-seeds", "42", "--baselines",
            "bestfit", "--parent", checkpoint, "--blend", "0.6", "--project", project, "--json" });
        QVERIFY2(bl.code == 0, bl.err.constData());
        const QString blendedRound = QJsonDocument::fromJson(bl.out).object()["rounds"].toArray()[0].toObject()["checkpoint"].toString();
        const QJsonArray all = QJsonDocument::fromJson(cli({ "rounds", "--project", project, "--json" }).out).object()["rounds"].toArray();
        QVERIFY2(all.last().toObject()["window"].toString() == "100 pods, ratio 1.3; blended 0.6 with its start (WiSE-FT)",
            qPrintable(all.last().toObject()["window"].toString()));
        const QString mixed = m_dir.filePath("mixed.slq");
        Run bm = cli({ "blend-model", "--from", checkpoint, "--to", blendedRound, "--t", "0", "--out", mixed });
        QVERIFY2(bm.code == 0, bm.err.constData());
        Run same = cli({ "eval", trace, "--policy", "learned:" + checkpoint + ",learned:" + mixed, "--eval-seeds", "42", "--json" });
        QVERIFY2(same.code == 0, same.err.constData());
        const QJsonObject se = QJsonDocument::fromJson(same.out).object()["eval"].toObject();
        for (const char* metric : { "finalGpuAllocPct", "failedPods" })
            QCOMPARE(se["learned:" + mixed].toObject()[metric].toDouble(), se["learned:" + checkpoint].toObject()[metric].toDouble());
        QCOMPARE(cli({ "blend-model", "--from", checkpoint, "--to", blendedRound, "--t", "2", "--out", mixed }).code, 2);
        QCOMPARE(cli({ "blend-model", "--from", checkpoint, "--to", blendedRound }).code, 2);
        Run notModel = cli({ "blend-model", "--from", trace, "--to", blendedRound, "--out", mixed });
        QCOMPARE(notModel.code, 1);
        QVERIFY(notModel.err.contains(trace.toUtf8()));
    }

    // Incident replay of a stored fill run: the overview, one decision with its rebuilt state
    // (hash-checked), candidates and re-scoring, and a fork with deltas.
    void decisionsAndFork()
    {
        const QString trace = m_dir.filePath("inc.sltrace"), project = m_dir.filePath("inc.schedlab");
        QCOMPARE(cli({ "generate", "--nodes", "16", "--jobs", "3000", "--seed", "8", "--out", trace }).code, 0);
        QCOMPARE(cli({ "import", trace, "--project", project }).code, 0);
        // Every pod (--no-trim): the generated trace asks for far more GPUs than the ratio.
        QCOMPARE(cli({ "replay", trace, "--mode", "fill", "--policy", "bestfit", "--seeds", "42", "--no-trim", "--project", project }).code, 0);
        Run overview = cli({ "decisions", "--project", project, "--run", "1", "--json" });
        QVERIFY2(overview.code == 0, overview.err.constData());
        const QJsonObject ov = QJsonDocument::fromJson(overview.out).object();
        QVERIFY(ov["decisions"].toInt() > 2000);
        QVERIFY(ov["failed"].toInt() > 0); // the sample asks for far more GPUs than there are
        const int burst = ov["failureBursts"].toArray()[0].toObject()["index"].toInt();

        Run one = cli({ "decisions", "--project", project, "--run", "1", "--index", "2000", "--rescore", "fgd,firstfit", "--json" });
        QVERIFY2(one.code == 0, one.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(one.out).object();
        QCOMPARE(d["index"].toInt(), 2000);
        // the whole run is replayed and checked: decisions 1000, 2000, ... before its end
        QCOMPARE(d["stateHashesVerified"].toInt(), (ov["decisions"].toInt() - 1) / 1000);
        const QJsonArray cands = d["candidates"].toArray();
        if (d["outcome"].toString() == "placed") {
            QVERIFY(d["rankOfChoice"].toInt() >= 1);
            bool chosen = false;
            for (const auto& c : cands)
                chosen = chosen || c.toObject()["chosen"].toBool();
            QVERIFY(chosen);
        }
        const QJsonArray rescored = d["rescored"].toArray();
        QCOMPARE(rescored.size(), 2);
        QCOMPARE(rescored[1].toObject()["policy"].toString(), QString("firstfit"));
        QVERIFY(d["cluster"].toObject()["gpuAllocPct"].toDouble() > 0);
        // runs recorded with --project keep their journal: the same answer without a replay
        QCOMPARE(ov["source"].toString(), QString("stored journal"));
        Run replayed = cli({ "decisions", "--project", project, "--run", "1", "--index", "2000", "--rescore", "fgd,firstfit", "--json", "--replay" });
        QVERIFY2(replayed.code == 0, replayed.err.constData());
        QCOMPARE(replayed.out, one.out);
        Run failed = cli({ "decisions", "--project", project, "--run", "1", "--index", QString::number(burst), "--json" });
        QCOMPARE(QJsonDocument::fromJson(failed.out).object()["outcome"].toString(), QString("failed"));

        Run f = cli({ "fork", "--project", project, "--run", "1", "--index", "100", "--policy", "random", "--json" }); // before the cluster fills
        QVERIFY2(f.code == 0, f.err.constData());
        const QJsonObject m = QJsonDocument::fromJson(f.out).object()["metrics"].toObject();
        const QJsonObject alloc = m["finalGpuAllocPct"].toObject();
        const QJsonObject failedPods = m["failedPods"].toObject();
        QVERIFY(failedPods["fork"].toInt() != failedPods["original"].toInt()); // placed differently from pod 100 on
        QCOMPARE(alloc["delta"].toDouble(), alloc["fork"].toDouble() - alloc["original"].toDouble());
        // a fork under the run's own policy changes nothing
        Run same = cli({ "fork", "--project", project, "--run", "1", "--index", "100", "--policy", "bestfit", "--json" });
        QCOMPARE(QJsonDocument::fromJson(same.out).object()["metrics"].toObject()["finalGpuAllocPct"].toObject()["delta"].toDouble(), 0.0);

        QCOMPARE(cli({ "decisions", "--project", project, "--run", "1", "--index", "999999" }).code, 2);
        QCOMPARE(cli({ "decisions", "--project", project, "--run", "7" }).code, 2);
        // Timed runs: incidents, a decision by time, a fork by time with a window.
        QCOMPARE(cli({ "replay", trace, "--mode", "timed", "--policy", "firstfit", "--project", project }).code, 0);
        Run tov = cli({ "decisions", "--project", project, "--run", "2", "--json" });
        QVERIFY2(tov.code == 0, tov.err.constData());
        const QJsonObject to = QJsonDocument::fromJson(tov.out).object();
        QCOMPARE(to["mode"].toString(), QString("timed"));
        QCOMPARE(to["stateHashesVerified"].toInt(), (to["decisions"].toInt() - 1) / 1000); // recorded every 1000 decisions
        QVERIFY(!to["incidents"].toArray().isEmpty()); // 16 nodes for 3000 jobs: waits pile up
        const int inc = to["incidents"].toArray()[0].toObject()["decision"].toInt();
        Run at = cli({ "decisions", "--project", project, "--run", "2", "--index", QString::number(inc), "--rescore", "bestfit", "--json" });
        QVERIFY2(at.code == 0, at.err.constData());
        const QJsonObject td = QJsonDocument::fromJson(at.out).object();
        QCOMPARE(td["index"].toInt(), inc);
        QVERIFY(td["job"].toInt() >= 0); // timed decisions belong to a job
        QVERIFY(td["request"].toString().startsWith("cpu "));
        QCOMPARE(td["rescored"].toArray().size(), 1);
        Run byTime = cli({ "decisions", "--project", project, "--run", "2", "--at", QString::number(td["time"].toDouble(), 'f', 3), "--json" });
        QCOMPARE(QJsonDocument::fromJson(byTime.out).object()["time"].toDouble(), td["time"].toDouble());
        Run tf = cli({ "fork", "--project", project, "--run", "2", "--index", QString::number(inc), "--policy", "firstfit", "--window", "6h", "--json" });
        QVERIFY2(tf.code == 0, tf.err.constData());
        const QJsonObject tm = QJsonDocument::fromJson(tf.out).object()["metrics"].toObject();
        QCOMPARE(tm["p99WaitS"].toObject()["delta"].toDouble(), 0.0); // the run's own policy
        QCOMPARE(tm["seriesGpuUtilPct"].toObject()["delta"].toDouble(), 0.0);
        QCOMPARE(cli({ "fork", "--project", project, "--run", "2", "--index", "3", "--policy", "nosuch" }).code, 2);
        // the decision table, filtered
        Run failedList = cli({ "decisions", "--project", project, "--run", "1", "--list", "--outcome", "failed", "--limit", "0", "--json" });
        QVERIFY2(failedList.code == 0, failedList.err.constData());
        const QJsonObject fl = QJsonDocument::fromJson(failedList.out).object();
        QCOMPARE(fl["matched"].toInt(), ov["failed"].toInt());
        QCOMPARE(fl["decisions"].toArray().size(), ov["failed"].toInt());
        Run node3 = cli({ "decisions", "--project", project, "--run", "2", "--list", "--node", "3", "--from", "2h", "--limit", "0", "--json" });
        const QJsonArray n3 = QJsonDocument::fromJson(node3.out).object()["decisions"].toArray();
        QVERIFY(!n3.isEmpty());
        for (const auto& row : n3) {
            QCOMPARE(row.toObject()["node"].toInt(), 3);
            QVERIFY(row.toObject()["time"].toDouble() >= 7200);
        }
        QCOMPARE(cli({ "decisions", "--project", project, "--run", "2", "--list", "--outcome", "maybe" }).code, 2);
        Run podsNotHours = cli({ "decisions", "--project", project, "--run", "1", "--at", "5h" }); // fill runs count pods
        QCOMPARE(podsNotHours.code, 2);
        QVERIFY(podsNotHours.err.contains("is not a pod number"));
        QCOMPARE(cli({ "decisions", "--project", project, "--run", "1", "--list", "--from", "abc" }).code, 2);
    }

    // libtorch is loaded only where a model is used (core/rl/torch_module.h): the binary does not
    // link it, heuristic work runs without the module, a model without it is a clear error.
    void torchOnlyWhereAModelIsUsed()
    {
        QProcess ldd;
        ldd.start("ldd", { QStringLiteral(SCHEDLAB_CLI) });
        QVERIFY(ldd.waitForFinished(30000));
        const QByteArray libs = ldd.readAllStandardOutput();
        QVERIFY2(libs.contains("libQt6Core"), libs.constData()); // ldd itself worked
        for (const char* lib : { "libtorch", "libopencv", "libQt5", "libc10" })
            QVERIFY2(!libs.contains(lib), lib);

        QProcessEnvironment noModule = QProcessEnvironment::systemEnvironment();
        noModule.insert("SCHEDLAB_TORCH_MODULE", m_dir.filePath("no-such-module.so"));
        Run heuristic = cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy",
                                "bestfit", "--seeds", "1" },
            noModule);
        QCOMPARE(heuristic.code, 0);
        Run model = cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy",
                            "learned:" + m_dir.filePath("m.slq"), "--seeds", "1" },
            noModule);
        QCOMPARE(model.code, 1);
        QVERIFY2(model.err.contains("libschedlab_torch.so") && model.err.contains("no-such-module.so: not found"),
            model.err.constData());
    }

    // Every command answers --help with its own usage lines; eval checks its policies first.
    void helpPerCommandAndOptionsCheckedFirst()
    {
        for (const char* cmd : { "info", "convert", "generate", "import", "replay", "runs", "train", "eval", "export-model",
                 "rounds", "decisions", "fork", "policies", "bench" }) {
            Run r = cli({ cmd, "--help" });
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains(QByteArray("  ") + cmd), cmd);
            QVERIFY2(!r.out.contains("commands:"), cmd); // only that command's entry
        }
        QVERIFY(cli({ "replay", "--help" }).out.contains("--jobs N"));
        QVERIFY(cli({ "bench", "-h" }).out.contains("bench scaling"));

        Run unknown = cli({ "eval", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy", "learned" });
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.contains("unknown policy 'learned'"), unknown.err.constData());
        Run missing = cli({ "eval", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--policy", "learned:" + m_dir.filePath("none.slq") });
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("none.slq: model file cannot be read"), missing.err.constData());
        // --seeds as in replay (the older --eval-seeds still works)
        Run seeds = cli({ "eval", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy", "bestfit",
            "--seeds", "1-2", "--ratio", "1.0" });
        QCOMPARE(seeds.code, 0);
        QCOMPARE(cli({ "eval", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--mode", "fill", "--policy", "bestfit",
                     "--seeds", "x" })
                     .code,
            2);
    }

    // Fidelity options: the trim is said and undone by --no-trim; --head is checked and recorded.
    void trimAndHeadOptions()
    {
        const QString sample = QStringLiteral(SCHEDLAB_TEST_DATA "/../../samples/sample.sltrace");
        Run trimmed = cli({ "replay", sample, "--mode", "fill", "--policy", "bestfit" });
        QCOMPARE(trimmed.code, 0);
        QVERIFY2(trimmed.out.contains("pods removed at random"), trimmed.out.constData());
        Run all = cli({ "replay", sample, "--mode", "fill", "--policy", "bestfit", "--no-trim", "--json" });
        QCOMPARE(all.code, 0);
        const QJsonObject run = QJsonDocument::fromJson(all.out).object()["runs"].toArray()[0].toObject();
        QCOMPARE(run["podsRemoved"].toInt(), 0);
        QCOMPARE(run["pods"].toInt(), run["originalPods"].toInt());
        QVERIFY(run["originalRequestPct"].toDouble() > 1000);
        Run bad = cli({ "replay", sample, "--mode", "timed", "--head", "sideways" });
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--head is resort"), bad.err.constData());
        Run commit = cli({ "replay", sample, "--mode", "timed", "--queue", "sjf", "--head", "commit", "--policy", "firstfit",
            "--top-k", "0", "--json" });
        QCOMPARE(commit.code, 0);
        const QJsonObject t = QJsonDocument::fromJson(commit.out).object();
        QCOMPARE(t["head"].toString(), QString("commit"));
        const QJsonObject r0 = t["runs"].toArray()[0].toObject();
        QCOMPARE(r0["head"].toString(), QString("commit"));
        QVERIFY(r0["seed"].isNull()); // FirstFit without a decision log draws nothing
        QCOMPARE(r0["seedUse"].toString(), QString("none"));
        QVERIFY(r0["slaS"].toObject().contains("LS")); // the sample's classes, with their SLA
        Run text = cli({ "replay", sample, "--mode", "timed", "--policy", "firstfit", "--top-k", "0" });
        QVERIFY2(text.out.contains("the seed changes no start there"), text.out.constData());
        QVERIFY2(text.out.contains("SLA: wait above default 3600 s"), text.out.constData());
    }

    // `cat FILE | schedlab-cli info -` and `replay - --project`: the same trace as the file, and the
    // project stores it (hashed from the stream's copy).
    // The bundled sample is this project's own generator output, and must stay loadable.
    void bundledSampleLoads()
    {
        const QString sample = QStringLiteral(SCHEDLAB_TEST_DATA "/../../samples/sample.sltrace");
        Run r = cli({ "info", "--json", sample });
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["format"].toString(), QString("generated"));
        QVERIFY(o["jobs"]["count"].toInt() >= 1000);
        QVERIFY(o["nodes"]["gpus"].toInt() > 0);
        QCOMPARE(o["warnings"]["total"].toInt(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
