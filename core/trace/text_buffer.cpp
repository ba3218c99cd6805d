#include "text_buffer.h"

#include "base/huge_page_allocator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace schedlab::trace {

namespace {
char* allocate(std::size_t bytes)
{
    void* p = bytes >= detail::kHugeThreshold ? detail::hugeAllocate(bytes) : std::malloc(bytes);
    return static_cast<char*>(p);
}
void deallocate(char* p, std::size_t bytes)
{
    if (bytes >= detail::kHugeThreshold)
        detail::hugeDeallocate(p, bytes);
    else
        std::free(p);
}
} // namespace

TextBuffer::~TextBuffer() { release(); }

void TextBuffer::release()
{
    if (m_data)
        deallocate(m_data, m_capacity);
    m_data = nullptr;
    m_size = m_capacity = 0;
}

bool TextBuffer::reserve(std::size_t bytes)
{
    if (bytes <= m_capacity)
        return true;
    char* p = allocate(bytes);
    if (!p)
        return false;
    if (m_size)
        std::memcpy(p, m_data, m_size);
    if (m_data)
        deallocate(m_data, m_capacity);
    m_data = p;
    m_capacity = bytes;
    return true;
}

char* TextBuffer::spare(std::size_t bytes)
{
    if (m_size + bytes > m_capacity && !reserve(std::max(m_size + bytes, m_capacity * 2)))
        return nullptr;
    return m_data + m_size;
}

void TextBuffer::append(const char* p, std::size_t n)
{
    if (char* to = spare(n)) {
        std::memcpy(to, p, n);
        m_size += n;
    }
}

void TextBuffer::eraseFront(std::size_t n)
{
    std::memmove(m_data, m_data + n, m_size - n);
    m_size -= n;
}

} // namespace schedlab::trace
