#pragma once
/// A growable byte buffer for whole-file formats (JSON): never zero-filled (std::string's resize
/// would write every byte once more), and mapped on huge pages from 4 MiB up (page faults on a
/// multi-GB text dominated reading time on VMs). Keeps `padding` spare bytes past the end, as
/// simdjson reads up to 64 bytes beyond the text. Not thread-safe.

#include <cstddef>

namespace schedlab::trace {

class TextBuffer {
public:
    TextBuffer() = default;
    ~TextBuffer();
    TextBuffer(const TextBuffer&) = delete;
    TextBuffer& operator=(const TextBuffer&) = delete;

    const char* data() const { return m_data; }
    char* data() { return m_data; }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; }
    bool empty() const { return m_size == 0; }
    void clear() { m_size = 0; }
    /// Capacity for at least `bytes` (contents kept); false when memory is short.
    bool reserve(std::size_t bytes);
    /// Room for `bytes` more past size(): a pointer to write them, committed by grow().
    char* spare(std::size_t bytes);
    void grow(std::size_t bytes) { m_size += bytes; }
    void append(const char* p, std::size_t n);
    void eraseFront(std::size_t n);
    /// Frees the memory.
    void release();

private:
    char* m_data = nullptr;
    std::size_t m_size = 0, m_capacity = 0;
};

} // namespace schedlab::trace
