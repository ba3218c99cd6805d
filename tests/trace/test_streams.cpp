// Traces read from a FIFO or a pipe: detection must not eat the start of the stream, a reader
// that has nothing yet is told why, and nothing of the stream is lost.

#include "trace/input_spool.h"
#include "trace/trace_loader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <fstream>
#include <sys/stat.h>
#include <thread>

using namespace schedlab;

namespace {
// A small SWF log (18 fields per job): 5 jobs, the first line a comment as in real logs.
std::string swfText()
{
    std::string s = "; MaxProcs: 64\n";
    for (int j = 1; j <= 5; ++j)
        s += std::to_string(j) + " " + std::to_string(j * 10) + " 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n";
    return s;
}
} // namespace

class TestStreams : public QObject {
    Q_OBJECT
private slots:
    void aFifoLosesNothingAndSaysItWaits()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("log.swf").toStdString(), fifo = dir.filePath("pipe").toStdString();
        std::ofstream(file) << swfText();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QVERIFY(trace::isStream(fifo));
        QVERIFY(!trace::isStream(file));
        auto direct = trace::loadTrace({ file });
        QVERIFY(direct.ok());
        QCOMPARE(direct->trace.jobs.size(), std::size_t(5));

        // The writer comes after 1.3 s: the reader is told it waits, once, naming the input.
        std::thread writer([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(1300));
            std::ofstream(fifo) << swfText();
        });
        std::vector<std::string> waited;
        trace::ImportOptions o;
        o.waitingForInput = [&](const std::string& name) { waited.push_back(name); };
        auto streamed = trace::loadTrace({ fifo }, o);
        writer.join();
        QVERIFY2(streamed.ok(), streamed.ok() ? "" : streamed.error().toString().c_str());
        QCOMPARE(waited.size(), std::size_t(1));
        QCOMPARE(waited[0], fifo);
        QCOMPARE(streamed->trace.jobs.size(), direct->trace.jobs.size());
        for (std::size_t j = 0; j < 5; ++j)
            QCOMPARE(streamed->trace.jobs[j].submitTimeS, direct->trace.jobs[j].submitTimeS);
        QCOMPARE(streamed->files[0].path, fifo); // messages name the FIFO, not the copy
        const std::string copy = streamed->files[0].readPath;
        QVERIFY(copy != fifo);
        QVERIFY(QFileInfo::exists(QString::fromStdString(copy))); // readable again while loaded
        streamed = Result<trace::LoadedTrace>(makeError(ErrorCode::Empty, "gone"));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(copy))); // removed with the trace
    }

    void anEmptyStreamIsAnErrorNamingIt()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("empty").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer([&] { std::ofstream f(fifo); });
        auto r = trace::loadTrace({ fifo });
        writer.join();
        QVERIFY(!r.ok());
        QVERIFY2(r.error().toString().find("empty") != std::string::npos, r.error().toString().c_str());
        QVERIFY2(r.error().toString().find(fifo.substr(fifo.rfind('/') + 1)) != std::string::npos, r.error().toString().c_str());
    }

    // The copy leaves the temporary folder its reserve: asking for more than the disk has stops
    // it at once, naming the input, the folder and the reserve.
    void theCopyLeavesFreeSpace()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("pipe").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer([&] { std::ofstream(fifo) << swfText(); });
        trace::ImportOptions o;
        o.stream.keepFreeBytes = int64_t(1) << 62;
        auto r = trace::loadTrace({ fifo }, o);
        writer.join();
        QVERIFY(!r.ok());
        const std::string e = r.error().toString();
        QVERIFY2(e.find("pipe") != std::string::npos && e.find("free there") != std::string::npos
                && e.find("leaves at least 4.0 EiB") != std::string::npos,
            e.c_str());
        QCOMPARE(trace::byteSizeText(int64_t(3) << 20), std::string("3.0 MiB"));
        QCOMPARE(trace::byteSizeText(900), std::string("900 B"));
        QCOMPARE(trace::byteSizeText(int64_t(512) << 20), std::string("512 MiB"));
    }

    // The copy has no name in the temporary folder, from the start (nothing a kill can leave).
    void theCopyHasNoName()
    {
        QTemporaryDir tmp, dir;
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", tmp.path().toUtf8());
        const std::string fifo = dir.filePath("pipe").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer([&] { std::ofstream(fifo) << swfText(); });
        auto r = trace::loadTrace({ fifo });
        writer.join();
        qputenv("TMPDIR", oldTmp);
        QVERIFY(r.ok());
        QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        QCOMPARE(r->trace.jobs.size(), std::size_t(5)); // and yet readable while loaded
    }

    // Warnings from a stream name the stream (not the copy it is read from), with their line.
    void warningsNameTheStream()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("sacct-pipe").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer([&] {
            std::ofstream(fifo) << "JobID|Submit|Start|End|State|NCPUS|NodeList\n"
                                   "2|2024-01-01T00:01:00|2024-01-01T00:00:50|2024-01-01T00:05:50|COMPLETED|1|cn1\n";
        });
        auto r = trace::loadTrace({ fifo });
        writer.join();
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->diagnostics.kept().size(), std::size_t(1));
        QCOMPARE(r->diagnostics.kept().front().file, std::string("sacct-pipe"));
        QCOMPARE(r->diagnostics.kept().front().line, int64_t(2));
    }
};

QTEST_GUILESS_MAIN(TestStreams)
#include "test_streams.moc"
