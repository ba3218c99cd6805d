// Bad input: every case gives a clear error naming file, line and field, or a counted warning with
// its line, and never crashes or hangs.

#include "test_util.h"

#include "trace/line_reader.h"
#include "trace/trace_loader.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::writeFile;
using schedlab::test::writeGzip;

namespace {
const std::string kPodHeader
    = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
const std::string kNodes = "sn,cpu_milli,memory_mib,gpu,model\nn0,32000,65536,2,T4\n";
const std::string kGoodPod = "p0,1000,1024,1,500,,LS,Running,0,10,1\n";
const std::string kTaskEvents = "0,,10,0,,0,u,2,9,0.125,0.0625,0.001,0\n1000000,,10,0,1,1,u,2,9,0.125,0.0625,0.001,0\n";
} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    // Fatal cases: the import fails with this code, and the message names the place.
    void fatal_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("content");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("expected"); // substring of Error::toString()
        QTest::newRow("empty file") << "empty.csv" << "" << int(ErrorCode::Empty) << "empty.csv: file is empty";
        QTest::newRow("blank lines only") << "blank.csv" << "\n  \n\n" << int(ErrorCode::Empty) << "file is empty";
        QTest::newRow("header only") << "pods.csv" << QString::fromStdString(kPodHeader) << int(ErrorCode::Empty)
                                     << "pods.csv: openb pod list: no data rows after the header";
        QTest::newRow("missing required column")
            << "pods.csv" << "name,cpu_milli,memory_mib,num_gpu\np0,1,1,0\n" << int(ErrorCode::Format)
            << "pods.csv:1: openb pod list: missing required column 'gpu_milli'";
        QTest::newRow("every row rejected")
            << "pods.csv" << QString::fromStdString(kPodHeader + "p1,abc,1,0,0,,LS,Running,0,10,1\np2,-5,1,0,0,,LS,Running,0,10,1\n")
            << int(ErrorCode::Empty)
            << "pods.csv:2: openb trace has neither nodes nor pods: every row of pods.csv was rejected (2 warnings); the first: column cpu_milli";
        QTest::newRow("unknown format") << "x.txt" << "hello world\n" << int(ErrorCode::Format)
                                        << "x.txt:1: unknown trace format: first line 'hello world'";
        // Almost a format: the closest one named, with what did not match.
        QTest::newRow("swf, too few fields") << "s.swf" << "1 0 5 100 4 -1 -1 4 200 -1 1 1\n" << int(ErrorCode::Format)
                                             << "s.swf:1: looks like an SWF line (whitespace-separated numbers) but has 12 fields where SWF has 18";
        QTest::newRow("google, wrong field count") << "g.csv" << "0,,3418309,0,4155527081,0,70s4\n" << int(ErrorCode::Format)
                                                   << "g.csv:1: comma-separated numbers like a Google 2011 events file, but 7 fields";
        QTest::newRow("sacct without header or times") << "s.txt" << "7|alice|COMPLETED|cn1\n" << int(ErrorCode::Format)
                                                       << "s.txt:1: '|'-separated like sacct --parsable2 output, but neither a header";
        QTest::newRow("lsb.events") << "lsb.events" << "#80\n\"MBD_START\" \"10.108\" 1643753712 \"h\" \"c\" 1 2\n" << int(ErrorCode::Format)
                                    << "lsb.events:1: an LSF event log (lsb.events, \"MBD_START\" records): schedlab reads the accounting log, lsb.acct";
        QTest::newRow("klog lines without their header")
            << "v10.log" << "schedule_one.go:646] \"Plugin scored node for pod\" pod=\"default/a\" plugin=\"NodeResourcesFit\" node=\"n1\" score=93\n"
            << int(ErrorCode::Format) << "v10.log:1: kube-scheduler log lines without klog's header";
        QTest::newRow("swf without jobs") << "a.swf" << "; Version: 2.2\n; MaxProcs: 4\n" << int(ErrorCode::Empty)
                                          << "SWF log has no job lines";
        QTest::newRow("native without end")
            << "t.sltrace" << "#schedlab-trace v1\nsource,openb\nnode,n,1,1,0,-1,-1,-1\n" << int(ErrorCode::Io)
            << "t.sltrace:3: file is truncated (no end record)";
        QTest::newRow("native bad number")
            << "t.sltrace" << "#schedlab-trace v1\nnode,n,abc,1,0,-1,-1,-1\nend,0,0\n" << int(ErrorCode::Parse)
            << "t.sltrace:2: cpu_milli: 'abc' is not a number";
    }
    void fatal()
    {
        QFETCH(QString, name);
        QFETCH(QString, content);
        QFETCH(int, code);
        QFETCH(QString, expected);
        const std::string path = writeFile(m_dir, name.toStdString(), content.toStdString());
        auto r = loadTrace({ path });
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().code), code);
        QVERIFY2(r.error().toString().find(expected.toStdString()) != std::string::npos, r.error().toString().c_str());
    }

    // Recoverable rows: warning with line and column, row skipped, the rest imported.
    void rowWarnings_data()
    {
        QTest::addColumn<QByteArray>("row");
        QTest::addColumn<QString>("category");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("jobsKept"); // of 2 (the good row plus this one)
        QTest::newRow("wrong type") << QByteArray("p1,abc,1024,0,0,,LS,Running,0,10,1") << "bad-number"
                                    << "pods.csv:3: column cpu_milli: 'abc' is not a number" << 1;
        QTest::newRow("negative request") << QByteArray("p1,1000,-5,0,0,,LS,Running,0,10,1") << "out-of-range"
                                          << "pods.csv:3: column memory_mib: '-5' is negative" << 1;
        QTest::newRow("2^63 request") << QByteArray("p1,9223372036854775808,1,0,0,,LS,Running,0,10,1") << "bad-number"
                                      << "column cpu_milli: '9223372036854775808' is out of range" << 1;
        QTest::newRow("NaN time") << QByteArray("p1,1000,1,0,0,,LS,Running,nan,10,1") << "bad-number"
                                  << "column creation_time: 'nan' is not a finite number" << 1;
        QTest::newRow("negative time") << QByteArray("p1,1000,1,0,0,,LS,Running,-4,10,1") << "out-of-range"
                                       << "column creation_time: '-4' is below 0" << 1;
        QTest::newRow("gpu_milli over 1000") << QByteArray("p1,1000,1,1,1500,,LS,Running,0,10,1") << "out-of-range"
                                             << "column gpu_milli: '1500' is larger than 1000" << 1;
        QTest::newRow("too few fields") << QByteArray("p1,1000,1") << "field-count" << "pods.csv:3: expected 11 fields, found 3"
                                        << 1;
        QTest::newRow("duplicate id") << QByteArray("p0,2000,1,0,0,,LS,Running,0,10,1") << "duplicate-id"
                                      << "pods.csv:3: column name: duplicate pod 'p0' (first at line 2)" << 1;
        QTest::newRow("non-UTF-8 number") << QByteArray("p1,10\xFF" "0,1,0,0,,LS,Running,0,10,1") << "bad-number"
                                          << "column cpu_milli: '10\\xFF0' is not a number" << 1;
        QTest::newRow("non-UTF-8 name kept") << QByteArray("p\xFE" "1,1000,1,0,0,,LS,Running,0,10,1") << "bad-encoding"
                                             << "column name: 'p\\xFE1' is not valid UTF-8" << 2;
        QTest::newRow("never fits (kept)") << QByteArray("p1,64000,1,0,0,,LS,Running,0,10,1") << "never-fits"
                                           << "pod 'p1' asks for more than any node has" << 2;
        QTest::newRow("model nobody has (kept)") << QByteArray("p1,1000,1,1,1000,A100,LS,Running,0,10,1") << "never-fits"
                                                 << "it can never run" << 2;
    }
    void rowWarnings()
    {
        QFETCH(QByteArray, row);
        QFETCH(QString, category);
        QFETCH(QString, expected);
        QFETCH(int, jobsKept);
        const std::string rowBytes = row.toStdString(); // QByteArray keeps the invalid bytes as they are
        const std::string nodes = writeFile(m_dir, "nodes.csv", kNodes);
        const std::string pods = writeFile(m_dir, "pods.csv", kPodHeader + kGoodPod + rowBytes + "\n");
        auto r = loadTrace({ nodes, pods });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(int(r->trace.jobs.size()), jobsKept);
        QCOMPARE(r->diagnostics.countOf(category.toStdString()), int64_t(1));
        QCOMPARE(r->diagnostics.total(), int64_t(1));
        const std::string text = r->diagnostics.kept().front().toString();
        QVERIFY2(text.find(expected.toLatin1().toStdString()) != std::string::npos, text.c_str());
        QCOMPARE(r->diagnostics.kept().front().line, int64_t(3));

        // --strict turns the same warning into an error at the same place.
        ImportOptions strict;
        strict.strict = true;
        auto s = loadTrace({ nodes, pods }, strict);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().line, int64_t(3));
        QVERIFY(s.error().toString().find("(--strict)") != std::string::npos);
    }

    void warningsAreCappedButCounted()
    {
        std::string content = kPodHeader + kGoodPod;
        for (int i = 0; i < 250; ++i)
            content += "bad" + std::to_string(i) + ",x,1,0,0,,LS,Running,0,10,1\n";
        auto r = loadTrace({ writeFile(m_dir, "many.csv", content) });
        QVERIFY(r.ok());
        QCOMPARE(r->diagnostics.total(), int64_t(250));
        QCOMPARE(r->diagnostics.kept().size(), Diagnostics::kMaxKept);
        QCOMPARE(r->trace.jobs.size(), std::size_t(1));
    }

    void crlfAndBomParseLikePlainLf()
    {
        const std::string plain = kPodHeader + kGoodPod + "p1,2000,2048,0,0,,BE,Running,5,15,6\n";
        std::string crlf;
        for (char c : plain) {
            if (c == '\n')
                crlf += '\r';
            crlf += c;
        }
        auto a = loadTrace({ writeFile(m_dir, "lf.csv", plain) });
        auto b = loadTrace({ writeFile(m_dir, "crlf.csv", crlf) });
        auto c = loadTrace({ writeFile(m_dir, "bom.csv", "\xEF\xBB\xBF" + crlf) });
        QVERIFY(a.ok() && b.ok() && c.ok());
        QCOMPARE(b->diagnostics.total(), int64_t(0));
        QCOMPARE(c->diagnostics.total(), int64_t(0));
        // identical apart from the file names
        b->trace.sourceFiles = c->trace.sourceFiles = a->trace.sourceFiles;
        QVERIFY(a->trace == b->trace);
        QVERIFY(a->trace == c->trace);
    }

    void gzipTransparentAndTruncated()
    {
        const std::string content = [] {
            std::string s;
            for (int i = 0; i < 20000; ++i)
                s += std::to_string(i * 1000) + ",," + std::to_string(100 + i) + ",0,,0,u,2,9,0.125,0.0625,0.001,0\n";
            return s;
        }();
        auto ok = loadTrace({ writeGzip(m_dir, "task_events.csv.gz", content) });
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
        QCOMPARE(ok->trace.jobs.size(), std::size_t(20000));

        auto bad = loadTrace({ writeGzip(m_dir, "cut.csv.gz", content, 3000) });
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().code, ErrorCode::Io);
        QVERIFY2(bad.error().toString().find("cut.csv.gz:") == 0, bad.error().toString().c_str());
        QVERIFY2(bad.error().message.find("truncated") != std::string::npos, bad.error().message.c_str());
    }

    void overlongLineIsAnError()
    {
        std::string content = kPodHeader + kGoodPod + "p1," + std::string(3 << 20, '9') + ",1,0,0,,LS,Running,0,1,0\n";
        ImportOptions o;
        o.reader.maxLineBytes = 2u << 20;
        auto r = loadTrace({ writeFile(m_dir, "long.csv", content) }, o);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Range);
        QCOMPARE(r.error().line, int64_t(3));
        QVERIFY(r.error().message.find("line is longer than 2 MiB") != std::string::npos);
    }

    // A 38 MB file is read through a buffer of 1 MiB: streamed, not slurped. (The 1 GB case is in
    // `schedlab-cli bench import`.)
    void largeFileIsStreamed()
    {
        const std::string path = m_dir.filePath("big.swf").toStdString();
        {
            std::FILE* f = std::fopen(path.c_str(), "wb");
            std::fputs("; MaxProcs: 64\n", f);
            for (int i = 0; i < 600000; ++i)
                std::fprintf(f, "%8d %9d 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", i + 1, i);
            std::fclose(f);
        }
        auto reader = LineReader::open(path);
        QVERIFY(reader.ok());
        std::string_view line;
        int64_t lines = 0;
        while (reader.value()->next(line))
            ++lines;
        QCOMPARE(lines, int64_t(600001));
        QCOMPARE(reader.value()->bytesRead(), int64_t(QFileInfo(QString::fromStdString(path)).size()));
        QVERIFY(reader.value()->bytesRead() > 30'000'000);
        QCOMPARE(reader.value()->bufferCapacity(), std::size_t(1) << 20);
        auto r = loadTrace({ path });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.jobs.size(), std::size_t(600000));
    }

    void filesThatDoNotBelongTogether()
    {
        const std::string swf = schedlab::test::dataPath("tiny/jobs.swf");
        const std::string nodes = schedlab::test::dataPath("tiny/nodes.csv");
        auto r = loadTrace({ nodes, swf });
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Invalid);
        QVERIFY(r.error().message.find("cannot combine") != std::string::npos);
        auto two = loadTrace({ nodes, nodes });
        QVERIFY(!two.ok());
    }

    void missingFileAndDirectory()
    {
        auto r = loadTrace({ m_dir.filePath("nope.csv").toStdString() });
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Io);
        QVERIFY(r.error().toString().find("nope.csv: cannot open") != std::string::npos);
        // A folder stands for the trace files in it (a kubectl dump): an empty one, or one whose
        // files no format claims, says so and names them.
        QVERIFY(QDir(m_dir.path()).mkpath("empty"));
        auto d = loadTrace({ m_dir.filePath("empty").toStdString() });
        QVERIFY(!d.ok());
        QCOMPARE(d.error().code, ErrorCode::Empty);
        QVERIFY2(d.error().toString().find("empty: no trace file in the folder (0 files") != std::string::npos, d.error().toString().c_str());
        QVERIFY(QDir(m_dir.path()).mkpath("junk"));
        writeFile(m_dir, "junk/notes.txt", "hello\n");
        d = loadTrace({ m_dir.filePath("junk").toStdString() });
        QVERIFY(!d.ok());
        QVERIFY2(d.error().toString().find("1 files, none of a known format: notes.txt") != std::string::npos, d.error().toString().c_str());
    }

    void swfMalformedLines()
    {
        const std::string swf = "; MaxProcs: 8\n"
                                "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1\n" // 17 fields
                                "2 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "3 0 5 100 x -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "2 9 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n" // duplicate
                                "5 0 5 100 -1 -1 -1 -1 200 -1 1 1 1 -1 -1 -1 -1 -1\n"; // no processors
        auto r = loadTrace({ writeFile(m_dir, "m.swf", swf) });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.jobs.size(), std::size_t(1));
        const auto& d = r->diagnostics;
        QCOMPARE(d.countOf("field-count"), int64_t(1));
        QCOMPARE(d.countOf("bad-number"), int64_t(1));
        QCOMPARE(d.countOf("duplicate-id"), int64_t(1));
        QCOMPARE(d.countOf("no-processors"), int64_t(1));
        QCOMPARE(d.kept()[1].toString(), std::string("m.swf:4: column allocated_procs: 'x' is not a number"));
    }

    // Alea's extended SWF adds three fields to each row (and CRLF line ends are common): read as
    // SWF, the extras said once as a note with the first row's line, not one warning per row.
    void swfExtendedFieldsAndCrlf()
    {
        const std::string swf = "; MaxProcs: 8\r\n"
                                "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1 0 gpu 2\r\n"
                                "2 10 5 50 2 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1 1 cpu 0\r\n"
                                "3 20 5 50 2 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1\r\n";
        auto r = loadTrace({ writeFile(m_dir, "alea.swf", swf) });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->files.front().kind, std::string("swf"));
        QCOMPARE(r->trace.jobs.size(), std::size_t(3));
        QCOMPARE(r->trace.jobs[1].runTimeS, 50.0);
        QCOMPARE(r->trace.jobs[1].requestedTimeS, 60.0);
        QCOMPARE(r->diagnostics.total(), int64_t(0));
        QCOMPARE(r->diagnostics.notes().at("swf rows with more than 18 fields, e.g. line 2 with 21 (an extended SWF such as Alea's "
                                           "21-field logs): fields after the 18th ignored"),
            int64_t(2));
    }

    // Regression (found by fuzz_swf): a job asking for 1e11 processors split into nodes of 4 made a
    // gang of 2.5e10 tasks and ran out of memory. Now it is skipped with a warning.
    void swfHugeProcessorCountIsBounded()
    {
        const std::string swf = "; MaxProcs: 8\n"
                                "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "2 0 5 100 99999999999 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "3 0 5 100 4000000 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";
        ImportOptions o;
        o.procsPerNode = 4;
        auto r = loadTrace({ writeFile(m_dir, "huge.swf", swf) }, o);
        QVERIFY(r.ok());
        QCOMPARE(r->trace.jobs.size(), std::size_t(1));
        QCOMPARE(r->diagnostics.countOf("no-processors"), int64_t(1)); // 1e11 > 2^24
        QCOMPARE(r->diagnostics.countOf("out-of-range"), int64_t(1)); // 4M / 4 = 1M tasks > 65536
        QVERIFY(r->trace.tasks.size() < 10);
    }

    // Regression (found by fuzz_swf under UBSan): a job number of 4.8e67 was converted to int64,
    // which is undefined behaviour. Now the row is skipped with a warning.
    void swfHugeJobNumberIsRejected()
    {
        const std::string swf = "; MaxProcs: 8\n"
                                "4.77778e+67 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "2 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n";
        auto r = loadTrace({ writeFile(m_dir, "id.swf", swf) });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.jobs.size(), std::size_t(1));
        QCOMPARE(r->trace.jobs[0].id.value, int64_t(2));
        QCOMPARE(r->diagnostics.kept().front().toString(),
            std::string("id.swf:2: column job_number: job number 4.77778e+67 is out of range; job skipped"));
    }

    void nodeListProblems()
    {
        const std::string nodes = "sn,cpu_milli,memory_mib,gpu,model\n"
                                  "n0,32000,65536,0,\n"
                                  "n0,32000,65536,0,\n" // duplicate
                                  "n1,-1,65536,0,\n" // negative
                                  "n2,32000,65536,0,T4\n"; // model without GPUs: warned, kept
        auto r = loadTrace({ writeFile(m_dir, "nodes.csv", nodes) });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.nodes.size(), std::size_t(2));
        QCOMPARE(r->diagnostics.countOf("duplicate-id"), int64_t(1));
        QCOMPARE(r->diagnostics.countOf("out-of-range"), int64_t(1));
        QCOMPARE(r->diagnostics.countOf("inconsistent"), int64_t(1));
        QCOMPARE(r->trace.nodes[1].gpuModel, int16_t(-1));
    }

    void googleBadRows()
    {
        const std::string rows = kTaskEvents + "abc,,10,1,,0,u,2,9,0.1,0.1,0,0\n" + "5,,10,2,,9,u,2,9,0.1,0.1,0,0\n";
        auto r = loadTrace({ writeFile(m_dir, "task_events.csv", rows) });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.tasks.size(), std::size_t(1));
        QCOMPARE(r->diagnostics.countOf("bad-number"), int64_t(1));
        QCOMPARE(r->diagnostics.countOf("out-of-range"), int64_t(1)); // event type 9
        QCOMPARE(r->diagnostics.kept()[0].toString(), std::string("task_events.csv:3: column time: 'abc' is not a number"));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
