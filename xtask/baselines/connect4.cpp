// Connect Four on a W x H board, explored and solved by a plain single-threaded program:
// the baseline of `cargo xtask bench game`.
//
// Rules: the first player moves first; a move drops a stone into a column that is not
// full. Four stones of one player in a line (vertical, horizontal, diagonal) end the game:
// the player who made that line has won, so the player to move there has lost. A full
// board without such a line is a tie. A position and its mirror image (columns reversed)
// are one position, unless --no-symmetry is given.
//
// Exploration: breadth first from the empty board, a hash map from packed position to
// vertex id, successor lists in id order. Solving: the reverse arcs (predecessor lists by
// counting sort), then the queue (retrograde) algorithm with move counters: wins and
// losses by increasing remoteness (the winner hurries, the loser delays), then ties by a
// search back from the tied finished positions through undecided ones (the least
// remoteness); what is left is a draw.
//
// Usage: connect4 W H [--no-symmetry]. Prints one line:
//   positions N moves M start OUTCOME REMOTENESS
// with OUTCOME one of win, loss, tie, draw (and REMOTENESS "-" for a draw).
//
// Packing: column c owns bits c*(H+1) .. c*(H+1)+H; bit r is row r from the bottom. A
// column holds a 1 for each stone of the player to move, a 0 for each stone of the other
// player, and a 1 just above its top stone.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

int W, H, S;  // columns, rows, bits per column (H + 1)
uint64_t column_bits, bottom, board;
bool symmetry = true;  // identify a position with its mirror image

// Stones of the player to move and all stones of a packed position.
void unpack(uint64_t key, uint64_t& mine, uint64_t& all) {
    all = 0;
    for (int c = 0; c < W; c++) {
        uint64_t seg = (key >> (c * S)) & column_bits;
        int top = 63 - __builtin_clzll(seg);
        all |= ((uint64_t(1) << top) - 1) << (c * S);
    }
    mine = key & all;
}

uint64_t pack(uint64_t mine, uint64_t all) { return mine + all + bottom; }

// Whether `stones` hold four in a line; the cells of a column are S bits apart from the
// next column's, so a shift by 1 walks up a column, by S along a row, by S - 1 and S + 1
// along the diagonals. The empty top bit of each column stops lines from wrapping.
bool four(uint64_t stones) {
    const int shifts[4] = {1, S - 1, S, S + 1};
    for (int s : shifts) {
        uint64_t m = stones & (stones >> s);
        if (m & (m >> (2 * s))) return true;
    }
    return false;
}

uint64_t mirror(uint64_t key) {
    uint64_t m = 0;
    for (int c = 0; c < W; c++) {
        uint64_t seg = (key >> (c * S)) & column_bits;
        m |= seg << ((W - 1 - c) * S);
    }
    return m;
}

uint64_t canonical(uint64_t key) {
    if (!symmetry) return key;
    uint64_t m = mirror(key);
    return m < key ? m : key;
}

enum Label : uint8_t { UNKNOWN, WIN, LOSS, TIE };

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[3]) == "--no-symmetry") {
        symmetry = false;
    } else if (argc != 3) {
        std::fprintf(stderr, "usage: connect4 W H [--no-symmetry]\n");
        return 2;
    }
    W = std::atoi(argv[1]);
    H = std::atoi(argv[2]);
    S = H + 1;
    if (W < 1 || H < 1 || W * S > 64) {
        std::fprintf(stderr, "the board must fit 64 bits: W * (H + 1) <= 64\n");
        return 2;
    }
    column_bits = S == 64 ? ~uint64_t(0) : (uint64_t(1) << S) - 1;
    bottom = 0;
    board = 0;
    for (int c = 0; c < W; c++) {
        bottom |= uint64_t(1) << (c * S);
        board |= ((uint64_t(1) << H) - 1) << (c * S);
    }

    // Exploration: vertex v is positions[v]; its successors are succ[soff[v] .. soff[v+1]].
    std::vector<uint64_t> positions;
    std::unordered_map<uint64_t, uint32_t> id;
    std::vector<uint64_t> soff{0};
    std::vector<uint32_t> succ;
    std::vector<uint8_t> label;  // UNKNOWN, or the value of a finished position
    uint64_t start = canonical(bottom);
    positions.push_back(start);
    id.emplace(start, 0);
    for (size_t v = 0; v < positions.size(); v++) {
        uint64_t mine, all;
        unpack(positions[v], mine, all);
        uint64_t theirs = mine ^ all;
        size_t first = succ.size();
        if (four(theirs)) {
            label.push_back(LOSS);
        } else if (all == board) {
            label.push_back(TIE);
        } else {
            label.push_back(UNKNOWN);
            for (int c = 0; c < W; c++) {
                uint64_t col = column_bits << (c * S);
                if ((all & board & col) == (board & col)) continue;  // full column
                uint64_t next_all = all | ((all + bottom) & col);
                uint64_t q = canonical(pack(theirs, next_all));
                auto [it, fresh] = id.emplace(q, uint32_t(positions.size()));
                if (fresh) positions.push_back(q);
                uint32_t t = it->second;
                bool repeated = false;
                for (size_t i = first; i < succ.size(); i++) repeated |= succ[i] == t;
                if (!repeated) succ.push_back(t);
            }
        }
        soff.push_back(succ.size());
    }
    size_t n = positions.size();
    size_t m = succ.size();
    uint32_t start_id = 0;

    // Reverse arcs by counting sort.
    std::vector<uint64_t> poff(n + 1, 0);
    for (uint32_t t : succ) poff[t + 1]++;
    for (size_t v = 0; v < n; v++) poff[v + 1] += poff[v];
    std::vector<uint32_t> pred(m);
    {
        std::vector<uint64_t> fill(poff.begin(), poff.end() - 1);
        for (size_t v = 0; v < n; v++)
            for (uint64_t a = soff[v]; a < soff[v + 1]; a++) pred[fill[succ[a]]++] = uint32_t(v);
    }

    // Wins and losses by increasing remoteness.
    std::vector<uint32_t> counter(n), remoteness(n, 0), queue;
    std::vector<uint32_t> ties;
    queue.reserve(n);
    for (size_t v = 0; v < n; v++) {
        counter[v] = uint32_t(soff[v + 1] - soff[v]);
        if (label[v] == LOSS) queue.push_back(uint32_t(v));
        if (label[v] == TIE) ties.push_back(uint32_t(v));
    }
    for (size_t head = 0; head < queue.size(); head++) {
        uint32_t v = queue[head];
        uint32_t next = remoteness[v] + 1;
        for (uint64_t a = poff[v]; a < poff[v + 1]; a++) {
            uint32_t p = pred[a];
            if (label[p] != UNKNOWN) continue;
            if (label[v] == LOSS) {
                label[p] = WIN;
                remoteness[p] = next;
                queue.push_back(p);
            } else if (--counter[p] == 0) {
                label[p] = LOSS;
                remoteness[p] = next;
                queue.push_back(p);
            }
        }
    }
    // Ties: back from the tied finished positions through undecided ones.
    queue.assign(ties.begin(), ties.end());
    for (size_t head = 0; head < queue.size(); head++) {
        uint32_t v = queue[head];
        for (uint64_t a = poff[v]; a < poff[v + 1]; a++) {
            uint32_t p = pred[a];
            if (label[p] != UNKNOWN) continue;
            label[p] = TIE;
            remoteness[p] = remoteness[v] + 1;
            queue.push_back(p);
        }
    }

    static const char* words[] = {"draw", "win", "loss", "tie"};
    uint8_t l = label[start_id];
    if (l == UNKNOWN)
        std::printf("positions %zu moves %zu start draw -\n", n, m);
    else
        std::printf("positions %zu moves %zu start %s %u\n", n, m, words[l], remoteness[start_id]);
    return 0;
}
