#include "checkpoint_zip.h"

#include <algorithm>
#include <cstdio>
#include <zlib.h>

namespace schedlab::rl {

namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kEnd64LocatorSig = 0x07064b50;
constexpr std::size_t kEndSize = 22, kEnd64Size = 56, kLocatorSize = 20, kCentralSize = 46, kLocalSize = 30;

uint64_t le(std::string_view b, std::size_t at, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = (v << 8) | uint8_t(b[at + std::size_t(i)]);
    return v;
}

Error zipError(std::string what) { return makeError(ErrorCode::Format, "corrupted checkpoint: " + std::move(what)); }

std::string hex32(uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// Where the central directory is and how many entries it holds (zip64 values when present).
struct Directory {
    uint64_t offset = 0, size = 0, entries = 0, end = 0; // end: the first byte after it may hold
};

Result<Directory> findDirectory(std::string_view b)
{
    if (b.size() < kEndSize)
        return zipError("too short for a zip archive (" + std::to_string(b.size()) + " bytes)");
    // The end record sits at the very end, followed only by its comment (at most 65535 bytes).
    std::size_t at = b.size() - kEndSize;
    const std::size_t lowest = b.size() > kEndSize + 65535 ? b.size() - kEndSize - 65535 : 0;
    while (le(b, at, 4) != kEndSig || at + kEndSize + le(b, at + 20, 2) != b.size()) {
        if (at == lowest)
            return zipError("no end of central directory record (truncated, or not a zip archive)");
        --at;
    }
    if (le(b, at + 4, 2) != 0 || le(b, at + 6, 2) != 0 || le(b, at + 8, 2) != le(b, at + 10, 2))
        return zipError("a multi-disk zip archive");
    Directory d { le(b, at + 16, 4), le(b, at + 12, 4), le(b, at + 10, 2), at };
    if (at >= kLocatorSize && le(b, at - kLocatorSize, 4) == kEnd64LocatorSig) {
        const std::size_t loc = at - kLocatorSize;
        const uint64_t e64 = le(b, loc + 8, 8);
        if (le(b, loc + 4, 4) != 0 || le(b, loc + 16, 4) > 1 || e64 > loc || loc - e64 < kEnd64Size
            || le(b, std::size_t(e64), 4) != kEnd64Sig)
            return zipError("bad zip64 end of central directory locator");
        const std::size_t p = std::size_t(e64);
        if (le(b, p + 16, 4) != 0 || le(b, p + 20, 4) != 0 || le(b, p + 24, 8) != le(b, p + 32, 8))
            return zipError("a multi-disk zip64 archive");
        const Directory d64 { le(b, p + 48, 8), le(b, p + 40, 8), le(b, p + 32, 8), e64 };
        // The 32-bit fields either agree or are saturated (0xFFFF...).
        if ((d.offset != 0xFFFFFFFF && d.offset != d64.offset) || (d.size != 0xFFFFFFFF && d.size != d64.size)
            || (d.entries != 0xFFFF && d.entries != d64.entries))
            return zipError("the zip64 and zip end records disagree");
        d = d64;
    }
    if (d.offset > d.end || d.size != d.end - d.offset)
        return zipError("central directory at byte " + std::to_string(d.offset) + " (" + std::to_string(d.size)
            + " bytes) does not end where the end record begins (byte " + std::to_string(d.end) + ")");
    if (d.entries == 0 || d.entries > kMaxZipEntries)
        return zipError("zip archive with " + std::to_string(d.entries) + " entries");
    return d;
}

// Zip64 extra field (id 1): the saturated sizes and offset, in this order, when saturated.
Status readZip64Extra(std::string_view extra, ZipEntry& e)
{
    for (std::size_t p = 0; p + 4 <= extra.size();) {
        const uint64_t id = le(extra, p, 2), len = le(extra, p + 2, 2);
        if (p + 4 + len > extra.size())
            return zipError("entry " + e.name + ": extra field runs past its header");
        if (id == 1) {
            std::size_t q = p + 4;
            for (uint64_t* v : { &e.size, &e.compressedSize, &e.localOffset }) {
                if (*v != 0xFFFFFFFF)
                    continue;
                if (q + 8 > p + 4 + len)
                    return zipError("entry " + e.name + ": zip64 field too short");
                *v = le(extra, q, 8);
                q += 8;
            }
        }
        p += 4 + len;
    }
    return {};
}

Result<ZipEntry> readCentralHeader(std::string_view b, std::size_t& p, std::size_t end)
{
    if (end - p < kCentralSize || le(b, p, 4) != kCentralSig)
        return zipError("bad central directory header at byte " + std::to_string(p));
    const std::size_t nameLen = le(b, p + 28, 2), extraLen = le(b, p + 30, 2), commentLen = le(b, p + 32, 2);
    if (end - p - kCentralSize < nameLen + extraLen + commentLen)
        return zipError("central directory header at byte " + std::to_string(p) + " runs past the directory");
    ZipEntry e;
    e.name.assign(b.substr(p + kCentralSize, nameLen));
    // Names go into error messages: no control characters, no pages of text.
    if (e.name.empty() || e.name.size() > 1024
        || std::any_of(e.name.begin(), e.name.end(), [](char c) { return uint8_t(c) < 0x20 || c == 0x7f; }))
        return zipError("the entry at byte " + std::to_string(p)
            + " has a name that is empty, longer than 1024 bytes or holds control characters");
    const uint64_t flags = le(b, p + 8, 2);
    e.method = int(le(b, p + 10, 2));
    e.crc = uint32_t(le(b, p + 16, 4));
    e.compressedSize = le(b, p + 20, 4);
    e.size = le(b, p + 24, 4);
    e.localOffset = le(b, p + 42, 4);
    if (le(b, p + 34, 2) != 0)
        return zipError("entry " + e.name + ": on another disk");
    if (Status st = readZip64Extra(b.substr(p + kCentralSize + nameLen, extraLen), e); !st)
        return st.error();
    if (flags & 1)
        return zipError("entry " + e.name + ": encrypted");
    if (e.method != 0 && e.method != 8)
        return zipError("entry " + e.name + ": compression method " + std::to_string(e.method) + " (stored or deflate only)");
    if (e.method == 0 && e.compressedSize != e.size)
        return zipError("entry " + e.name + ": stored with two different sizes");
    if (e.method == 8 && (e.size > kMaxInflatedBytes || e.compressedSize > 2 * kMaxInflatedBytes))
        return zipError("entry " + e.name + ": compressed entry of " + std::to_string(e.size) + " bytes (at most "
            + std::to_string(kMaxInflatedBytes) + ")");
    p += kCentralSize + nameLen + extraLen + commentLen;
    return e;
}

// The local header must agree with the directory; the data must end before the directory.
Status placeData(std::string_view b, ZipEntry& e, uint64_t dirOffset)
{
    if (e.localOffset > dirOffset || dirOffset - e.localOffset < kLocalSize || le(b, e.localOffset, 4) != kLocalSig)
        return zipError("entry " + e.name + ": no local header at byte " + std::to_string(e.localOffset));
    const std::size_t at = std::size_t(e.localOffset);
    const uint64_t nameLen = le(b, at + 26, 2), extraLen = le(b, at + 28, 2);
    if (dirOffset - e.localOffset - kLocalSize < nameLen + extraLen)
        return zipError("entry " + e.name + ": local header runs into the central directory");
    if (b.substr(at + kLocalSize, nameLen) != e.name || int(le(b, at + 8, 2)) != e.method)
        return zipError("entry " + e.name + ": local header disagrees with the central directory");
    e.dataOffset = e.localOffset + kLocalSize + nameLen + extraLen;
    if (e.compressedSize > dirOffset - e.dataOffset)
        return zipError("entry " + e.name + ": " + std::to_string(e.compressedSize) + " bytes at byte "
            + std::to_string(e.dataOffset) + " run past the data area (truncated?)");
    return {};
}

Status checkApart(std::vector<ZipEntry> entries)
{
    std::sort(entries.begin(), entries.end(), [](const ZipEntry& a, const ZipEntry& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i].name == entries[i - 1].name)
            return zipError("entry " + entries[i].name + " appears twice");
    std::sort(entries.begin(), entries.end(),
        [](const ZipEntry& a, const ZipEntry& b) { return a.localOffset < b.localOffset; });
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i - 1].dataOffset + entries[i - 1].compressedSize > entries[i].localOffset)
            return zipError("entries " + entries[i - 1].name + " and " + entries[i].name + " overlap");
    return {};
}

uint32_t crc32Of(std::string_view data)
{
    return uint32_t(::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(data.data()), data.size()));
}

Status checkCrc(const ZipEntry& e, std::string_view data)
{
    const uint32_t got = crc32Of(data);
    if (got != e.crc)
        return zipError("entry " + e.name + ": CRC mismatch (the directory says " + hex32(e.crc) + ", the data gives "
            + hex32(got) + ")");
    return {};
}

Result<std::string> inflateEntry(std::string_view raw, const ZipEntry& e)
{
    std::string out(std::size_t(e.size), '\0');
    char dummy = 0;
    z_stream zs {};
    if (::inflateInit2(&zs, -MAX_WBITS) != Z_OK)
        return zipError("entry " + e.name + ": cannot start inflating");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    zs.avail_in = uInt(raw.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.empty() ? &dummy : out.data());
    zs.avail_out = uInt(out.size());
    const int rc = ::inflate(&zs, Z_FINISH);
    const bool whole = rc == Z_STREAM_END && zs.total_out == e.size && zs.total_in == raw.size();
    ::inflateEnd(&zs);
    if (!whole)
        return zipError("entry " + e.name + ": deflate data is damaged or has the wrong size");
    return out;
}

} // namespace

Result<std::vector<ZipEntry>> readZipDirectory(std::string_view b)
{
    auto dir = findDirectory(b);
    if (!dir)
        return dir.error();
    std::vector<ZipEntry> entries;
    std::size_t p = std::size_t(dir->offset);
    for (uint64_t i = 0; i < dir->entries; ++i) {
        auto e = readCentralHeader(b, p, std::size_t(dir->end));
        if (!e)
            return e.error();
        if (Status st = placeData(b, *e, dir->offset); !st)
            return st.error();
        entries.push_back(std::move(*e));
    }
    if (p != dir->end)
        return zipError("the central directory holds more than its " + std::to_string(dir->entries) + " entries");
    if (Status st = checkApart(entries); !st)
        return st.error();
    return entries;
}

Result<std::string_view> storedZipEntry(std::string_view b, const ZipEntry& e)
{
    if (e.method != 0)
        return zipError("entry " + e.name + ": compressed where libtorch stores data as is");
    const std::string_view data = b.substr(std::size_t(e.dataOffset), std::size_t(e.size));
    if (Status st = checkCrc(e, data); !st)
        return st.error();
    return data;
}

Result<std::string> readZipEntry(std::string_view b, const ZipEntry& e)
{
    if (e.method == 0) {
        auto data = storedZipEntry(b, e);
        if (!data)
            return data.error();
        return std::string(*data);
    }
    auto out = inflateEntry(b.substr(std::size_t(e.dataOffset), std::size_t(e.compressedSize)), e);
    if (!out)
        return out.error();
    if (Status st = checkCrc(e, *out); !st)
        return st.error();
    return out;
}

} // namespace schedlab::rl
