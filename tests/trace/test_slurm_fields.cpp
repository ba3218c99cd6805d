// The value syntaxes of sacct output, each case worked out by hand from the Slurm documentation's
// forms and the quirks listed in ../shared/traces/slurm-*/SOURCES.md.

#include "trace/slurm_fields.h"
#include "trace/lsf_importer.h"

#include <QtTest>

using namespace schedlab::trace;

class TestSlurmFields : public QObject {
    Q_OBJECT
private slots:
    void civilTime()
    {
        QCOMPARE(civilSeconds(1970, 1, 1, 0, 0, 0), int64_t(0));
        // 2016-12-22T07:15:12: 17157 days after the epoch (1970..2015 = 46 years, 11 leap days
        // = 16801 days; Jan 1 .. Dec 22 of the leap year 2016 = 356 days) + 26112 s.
        QCOMPARE(civilSeconds(2016, 12, 22, 7, 15, 12), int64_t(17157) * 86400 + 26112);
        QCOMPARE(civilSeconds(2000, 3, 1, 0, 0, 0), int64_t(951868800)); // after a leap day of a 400-year
        std::string e;
        QCOMPARE(parseSlurmDateTime("2016-12-22T07:15:12", e).value(), civilSeconds(2016, 12, 22, 7, 15, 12));
        QCOMPARE(parseSlurmDateTime(" 2016-12-22 07:15:12", e).value(), civilSeconds(2016, 12, 22, 7, 15, 12));
        QVERIFY(!parseSlurmDateTime("2017-02-29T00:00:00", e)); // not a leap year
        QVERIFY(e.find("not a valid date") != std::string::npos);
        QVERIFY(!parseSlurmDateTime("2016-12-22T07:15", e));
        QVERIFY(e.find("YYYY-MM-DDTHH:MM:SS") != std::string::npos);
        QVERIFY(isSlurmNoTime("Unknown") && isSlurmNoTime("None") && isSlurmNoTime("") && !isSlurmNoTime("2016"));
    }

    void durations()
    {
        std::string e;
        QCOMPARE(parseSlurmDuration("10-13:27:06", e).value(), 10 * 86400.0 + 13 * 3600 + 27 * 60 + 6);
        QCOMPARE(parseSlurmDuration("00:00:24", e).value(), 24.0);
        QCOMPARE(parseSlurmDuration("01:07.402", e).value(), 67.402); // MM:SS.mmm (TotalCPU)
        QCOMPARE(parseSlurmDuration("37-14:00:00", e).value(), 37 * 86400.0 + 14 * 3600);
        QCOMPARE(parseSlurmDuration("2-12", e).value(), 2 * 86400.0 + 12 * 3600); // D-HH
        QCOMPARE(parseSlurmDuration("1-02:30", e).value(), 86400.0 + 2 * 3600 + 30 * 60); // D-HH:MM
        e.clear();
        QVERIFY(!parseSlurmDuration("Partition_Limit", e) && e.empty());
        QVERIFY(!parseSlurmDuration("UNLIMITED", e) && e.empty());
        QVERIFY(!parseSlurmDuration("1440", e) && !e.empty()); // minutes or seconds? never guessed
        e.clear();
        QVERIFY(!parseSlurmDuration("12:75:00", e) && !e.empty());
    }

    void memory()
    {
        std::string e;
        auto m = parseSlurmMemory("31000Mn", e);
        QVERIFY(m && !m->perCpu && m->mib == 31000);
        m = parseSlurmMemory("100Mc", e);
        QVERIFY(m && m->perCpu && m->mib == 100);
        m = parseSlurmMemory("62.50G", e);
        QVERIFY(m && m->mib == 64000);
        m = parseSlurmMemory("114944K", e);
        QVERIFY(m && m->mib == 112.25);
        m = parseSlurmMemory("4000", e); // no unit: MiB
        QVERIFY(m && m->mib == 4000 && !m->perCpu);
        // The old sacct artefact: 2^31 + 3000 with 'n' = 3000 MiB per CPU.
        m = parseSlurmMemory("2147486648Mn", e);
        QVERIFY(m && m->perCpu && m->flagInNumber && m->mib == 3000);
        QVERIFY(!parseSlurmMemory("12q", e));
        QVERIFY(e.find("'12q'") != std::string::npos);
        QVERIFY(!parseSlurmMemory("-5G", e));
    }

    void tres()
    {
        std::string e;
        auto t = parseSlurmTres("billing=12,cpu=12,gres/gpu=2,mem=31000M,node=1", e);
        QVERIFY(t);
        QCOMPARE(t->cpu, int64_t(12));
        QCOMPARE(t->gpus, int64_t(2));
        QCOMPARE(t->memMiB, 31000.0);
        QCOMPARE(t->nodes, int64_t(1));
        QVERIFY(t->gpuModel.empty());
        // a typed entry repeats the total: counted once, its type kept
        t = parseSlurmTres("cpu=8,gres/gpu=4,gres/gpu:a100=4,mem=64G,node=2", e);
        QVERIFY(t && t->gpus == 4 && t->gpuModel == "a100" && t->memMiB == 65536 && t->nodes == 2);
        t = parseSlurmTres("cpu=8,gres/gpu:v100=2", e); // typed only
        QVERIFY(t && t->gpus == 2 && t->gpuModel == "v100");
        QVERIFY(parseSlurmTres("", e)->cpu == -1);
        QVERIFY(!parseSlurmTres("cpu=x", e));
        QVERIFY(!parseSlurmTres("cpu", e));
    }

    void hostlists()
    {
        std::string e;
        auto h = expandHostlist("cn[01-04,07]", 100, e);
        QVERIFY(h);
        QCOMPARE(*h, (std::vector<std::string> { "cn01", "cn02", "cn03", "cn04", "cn07" }));
        h = expandHostlist("cpn-f13-03-[01-02],cpn-f13-04-[01-02]", 100, e);
        QCOMPARE(*h, (std::vector<std::string> { "cpn-f13-03-01", "cpn-f13-03-02", "cpn-f13-04-01", "cpn-f13-04-02" }));
        h = expandHostlist("rack[1-2]-n[8-9]", 100, e); // two groups: the product, first group outermost
        QCOMPARE(*h, (std::vector<std::string> { "rack1-n8", "rack1-n9", "rack2-n8", "rack2-n9" }));
        h = expandHostlist("cn[8-10]", 100, e); // width from the low bound ("8"): no padding
        QCOMPARE(*h, (std::vector<std::string> { "cn8", "cn9", "cn10" }));
        QVERIFY(expandHostlist("None assigned", 100, e)->empty());
        QVERIFY(!expandHostlist("cn[01-04", 100, e));
        QVERIFY(e.find("unclosed") != std::string::npos);
        QVERIFY(!expandHostlist("cn[05-01]", 100, e));
        QVERIFY(!expandHostlist("cn[0-999999]", 1000, e)); // hostile: bounded
        QVERIFY(e.find("more than 1000") != std::string::npos);
    }

    void timeZones()
    {
        std::string e;
        const int64_t winter = civilSeconds(2016, 12, 22, 7, 15, 12), summer = civilSeconds(2016, 7, 1, 12, 0, 0);
        auto utc = LocalTimeZone::make("UTC", e);
        QVERIFY(utc && utc->isUtc());
        QCOMPARE(utc->toUnix(winter), winter);
        auto ny = LocalTimeZone::make("America/New_York", e);
        QVERIFY2(ny, e.c_str());
        QCOMPARE(ny->toUnix(winter), winter + 5 * 3600); // EST, UTC-5
        QCOMPARE(ny->toUnix(summer), summer + 4 * 3600); // EDT, UTC-4
        auto cr = LocalTimeZone::make("UTC-06:00", e);
        QVERIFY(cr);
        QCOMPARE(cr->toUnix(winter), winter + 6 * 3600);
        QCOMPARE(LocalTimeZone::make("+05:30", e)->toUnix(0), int64_t(-19800));
        QVERIFY(!LocalTimeZone::make("Mars/Olympus", e));
        QVERIFY(e.find("unknown time zone") != std::string::npos);
        QVERIFY(!LocalTimeZone::make("UTC+99", e));
    }

    void lsfRecordSplitting()
    {
        std::vector<std::string_view> f;
        std::deque<std::string> storage;
        std::string e;
        QVERIFY(splitLsfRecord("\"JOB_FINISH\" \"10.108\" 1643910038 \"a \"\"quoted\"\" name\" \"\" 3", f, storage, e));
        QCOMPARE(f.size(), std::size_t(6));
        QCOMPARE(f[0], std::string_view("JOB_FINISH"));
        QCOMPARE(f[2], std::string_view("1643910038"));
        QCOMPARE(f[3], std::string_view("a \"quoted\" name"));
        QCOMPARE(f[4], std::string_view(""));
        QCOMPARE(f[5], std::string_view("3"));
        QVERIFY(!splitLsfRecord("\"JOB_FINISH\" \"cut", f, storage, e));
        QVERIFY(e.find("unterminated") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSlurmFields)
#include "test_slurm_fields.moc"
