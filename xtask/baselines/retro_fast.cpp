// The strong baseline of `cargo xtask bench retro`: the plain single-threaded program a
// strong contestant writes for retrograde win/lose/draw analysis with depth and optimal
// moves.
//
// Reads the header text format (`N M`, the start vertex, M arcs `u v`, 1-based; white
// space anywhere, `#` comments to the end of the line) from the file named on the command
// line: the whole file in one buffer (one `read` of its size), parsed by a pointer walking
// the buffer. Builds successor and predecessor arrays (CSR) by counting sort, runs the
// classic queue algorithm with successor counters (terminal positions are L with depth 0;
// popping an L labels its unlabelled predecessors W with depth + 1; popping a W decrements
// its unlabelled predecessors' counters, and a counter reaching zero labels L with
// depth + 1), and picks the optimal move of every vertex: W to an L successor of least
// depth, L to a successor of greatest depth, D to a D successor, the smallest id on ties.
//
// Prints the answer for the start vertex (1 the player to move wins, 2 the other player
// wins, 0 draw), or with `--all` one line `V OUTCOME DEPTH MOVE` per vertex (1-based ids,
// OUTCOME W, L or D, `-` for no depth or no move), the table of `gamegraph retro --all`.
//
// Build: g++ -O2 -o retro-fast retro_fast.cpp
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const uint32_t NONE = UINT32_MAX;

[[noreturn]] void fail(const char* what) {
    fprintf(stderr, "error: %s\n", what);
    exit(2);
}

// The input, with a NUL after its last byte so that the parser needs no bounds checks.
std::vector<char> read_file(const char* path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        perror(path);
        exit(1);
    }
    size_t size = size_t(st.st_size);
    std::vector<char> buf(size + 1);
    size_t got = 0;
    // One read for the whole file; the loop only continues where the kernel caps a read
    // (about 2 GiB on Linux).
    while (got < size) {
        ssize_t r = read(fd, buf.data() + got, size - got);
        if (r < 0) {
            perror(path);
            exit(1);
        }
        if (r == 0) break;
        got += size_t(r);
    }
    close(fd);
    buf.resize(got + 1);
    buf[got] = '\0';
    return buf;
}

// One past the input's last byte (where the NUL is).
const char* text_end;

inline bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

// Skips white space and comments; returns the first other byte's position.
inline const char* skip(const char* p) {
    for (;;) {
        while (is_space(*p)) p++;
        if (*p != '#') return p;
        const char* nl = static_cast<const char*>(strchr(p, '\n'));
        if (!nl) return p + strlen(p);
        p = nl;
    }
}

// The next unsigned number; exits on anything else.
inline uint64_t number(const char*& p) {
    p = skip(p);
    unsigned d = unsigned(*p) - '0';
    if (d > 9) fail("expected a number");
    uint64_t x = 0;
    int digits = 0;
    do {
        x = x * 10 + d;
        p++;
        digits++;
        d = unsigned(*p) - '0';
    } while (d <= 9);
    if (digits > 19) fail("number too large");
    if (*p != '\0' && *p != '#' && !is_space(*p)) fail("expected white space after a number");
    return x;
}

// Appends the decimal digits of `x` at `out`.
inline char* put(char* out, uint64_t x) {
    char tmp[20];
    int k = 0;
    do {
        tmp[k++] = char('0' + x % 10);
        x /= 10;
    } while (x);
    while (k) *out++ = tmp[--k];
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    bool all = argc == 3 && strcmp(argv[2], "--all") == 0;
    if (argc != 2 && !all) {
        fprintf(stderr, "usage: %s FILE [--all]\n", argv[0]);
        return 2;
    }
    std::vector<char> text = read_file(argv[1]);
    const char* p = text.data();
    text_end = text.data() + text.size() - 1;
    uint64_t n64 = number(p), m64 = number(p), start = number(p);
    if (n64 == 0 || n64 >= NONE) fail("bad number of vertices");
    if (m64 >= NONE) fail("too many arcs");
    if (start < 1 || start > n64) fail("bad start vertex");
    uint32_t n = uint32_t(n64), m = uint32_t(m64);

    // The arcs, 0-based, then the degree counts in a pass of their own.
    std::vector<uint32_t> src(m), dst(m);
    for (uint32_t i = 0; i < m; i++) {
        uint64_t u = number(p), v = number(p);
        if (u - 1 >= n64 || v - 1 >= n64) fail("vertex out of range");
        src[i] = uint32_t(u - 1);
        dst[i] = uint32_t(v - 1);
    }
    if (skip(p) != text_end) fail("unexpected text after the arcs");
    std::vector<char>().swap(text);

    // Successor and predecessor CSR by counting sort.
    std::vector<uint32_t> soff(n + 1, 0), poff(n + 1, 0);
    for (uint32_t i = 0; i < m; i++) {
        soff[src[i] + 1]++;
        poff[dst[i] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) {
        soff[v + 1] += soff[v];
        poff[v + 1] += poff[v];
    }
    std::vector<uint32_t> succ(m), pred(m);
    {
        std::vector<uint32_t> fill(soff.begin(), soff.end() - 1);
        for (uint32_t i = 0; i < m; i++) succ[fill[src[i]]++] = dst[i];
        fill.assign(poff.begin(), poff.end() - 1);
        for (uint32_t i = 0; i < m; i++) pred[fill[dst[i]]++] = src[i];
    }
    std::vector<uint32_t>().swap(src);
    std::vector<uint32_t>().swap(dst);

    // The queue algorithm. label: 0 unknown (draw at the end), 1 W, 2 L.
    std::vector<uint8_t> label(n, 0);
    std::vector<uint32_t> counter(n), depth(n, NONE), queue(n);
    uint32_t tail = 0;
    for (uint32_t v = 0; v < n; v++) {
        counter[v] = soff[v + 1] - soff[v];
        if (counter[v] == 0) {
            label[v] = 2;
            depth[v] = 0;
            queue[tail++] = v;
        }
    }
    for (uint32_t head = 0; head < tail; head++) {
        uint32_t v = queue[head];
        uint32_t d = depth[v] + 1;
        const uint32_t* it = pred.data() + poff[v];
        const uint32_t* end = pred.data() + poff[v + 1];
        if (label[v] == 2) {
            for (; it != end; it++) {
                uint32_t u = *it;
                if (label[u] != 0) continue;
                label[u] = 1;
                depth[u] = d;
                queue[tail++] = u;
            }
        } else {
            for (; it != end; it++) {
                uint32_t u = *it;
                if (label[u] != 0) continue;
                if (--counter[u] == 0) {
                    label[u] = 2;
                    depth[u] = d;
                    queue[tail++] = u;
                }
            }
        }
    }
    std::vector<uint32_t>().swap(pred);
    std::vector<uint32_t>().swap(poff);
    std::vector<uint32_t>().swap(queue);

    // Optimal moves: a W's successor of depth one less is an L of least depth; every
    // successor of an L is a W, and one of depth one less has the greatest depth.
    std::vector<uint32_t>& move = counter;
    uint64_t counts[3] = {0, 0, 0};
    for (uint32_t v = 0; v < n; v++) {
        counts[label[v]]++;
        uint32_t best = NONE;
        const uint32_t* it = succ.data() + soff[v];
        const uint32_t* end = succ.data() + soff[v + 1];
        if (label[v] == 0) {
            for (; it != end; it++)
                if (label[*it] == 0 && *it < best) best = *it;
        } else {
            uint32_t want = depth[v] - 1;
            uint8_t kind = label[v] == 1 ? 2 : 1;
            for (; it != end; it++)
                if (depth[*it] == want && label[*it] == kind && *it < best) best = *it;
        }
        move[v] = best;
    }

    if (!all) {
        uint8_t l = label[start - 1];
        printf("%d\n", l == 1 ? 1 : l == 2 ? 2 : 0);
        fprintf(stderr, "W %llu L %llu D %llu, move of start %lld\n",
                (unsigned long long)counts[1], (unsigned long long)counts[2],
                (unsigned long long)counts[0],
                move[start - 1] == NONE ? -1LL : (long long)move[start - 1] + 1);
        return 0;
    }
    // The table, written through one buffer flushed every megabyte or so.
    const size_t CHUNK = 1 << 20, LINE = 3 * 11 + 5;
    std::vector<char> out(CHUNK + LINE);
    char* o = out.data();
    for (uint32_t v = 0; v < n; v++) {
        o = put(o, uint64_t(v) + 1);
        *o++ = ' ';
        *o++ = "DWL"[label[v]];
        *o++ = ' ';
        if (label[v] == 0) *o++ = '-';
        else o = put(o, depth[v]);
        *o++ = ' ';
        if (move[v] == NONE) *o++ = '-';
        else o = put(o, uint64_t(move[v]) + 1);
        *o++ = '\n';
        if (size_t(o - out.data()) >= CHUNK) {
            fwrite(out.data(), 1, size_t(o - out.data()), stdout);
            o = out.data();
        }
    }
    fwrite(out.data(), 1, size_t(o - out.data()), stdout);
    return fflush(stdout) == 0 ? 0 : 1;
}
