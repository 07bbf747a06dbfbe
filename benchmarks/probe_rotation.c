/* The forward search of probe_rotation.py, compiled: a measurement of what a compiled core would give
 * (issue 12). Same relaxation, same states, same count of states; `probe_rotation.py --compiled`
 * writes the problem to its standard input and reads "line|refuted STATES SECONDS" back.
 *
 * Input, whitespace-separated integers:
 *   players seat tokens drawing tracked chains earning_allowed plain_needed earning_fives
 *   per tracked card: holders (a bit per seat) five chain step
 *   per chain: its length, then its tracked cards in order
 *   per act (drawing of them): how many tracked cards its draw brings, then which
 *
 * A state is (seat to act, tracked cards played per chain, seats holding each tracked card; in the
 * final round also the earning acts made). Its front is kept as best[t]: the most non-earning plays
 * made with t clue tokens or more (-1: none); merging two fronts is their elementwise maximum, and the
 * Pareto points are where best[t] > best[t + 1]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOKENS 8
#define MAX_TRACKED 25 /* holders of 5 seats each fit 128 bits */
#define MAX_CHAINS 6

typedef unsigned __int128 Holders; /* `players` bits per tracked card */
typedef struct {
    uint32_t key;    /* seat (3 bits) | played per chain (3 bits each) << 3 | earning acts << 24 (final round) */
    Holders holders;
    int8_t best[TOKENS + 1];
} State;
typedef struct {
    State *states;
    int32_t *slots; /* open addressing into `states` */
    size_t count, capacity, mask;
} Layer;

static int players, seat0, tokens0, drawing, tracked, chains, earning_allowed, plain_needed, earning_fives;
static Holders held0;
static int five[MAX_TRACKED], chain_of[MAX_TRACKED], step_of[MAX_TRACKED];
static int chain_length[MAX_CHAINS], chain_cards[MAX_CHAINS][MAX_TRACKED];
static int **arriving, *arriving_count;
static long long visited;

static uint64_t hash(uint32_t key, Holders holders) {
    uint64_t x = (uint64_t)holders * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(holders >> 64) * 0xC2B2AE3D27D4EB4FULL;
    x ^= key * 0x165667B19E3779F9ULL;
    x ^= x >> 31;
    x *= 0xD6E8FEB86659FD93ULL;
    return x ^ (x >> 32);
}

static void *checked(void *memory) {
    if (memory == NULL) {
        fputs("out of memory\n", stderr);
        exit(3);
    }
    return memory;
}

static void layer_init(Layer *layer) {
    layer->count = 0;
    layer->capacity = 1024;
    layer->states = checked(malloc(layer->capacity * sizeof(State)));
    layer->mask = 2047;
    layer->slots = checked(malloc((layer->mask + 1) * sizeof(int32_t)));
    memset(layer->slots, -1, (layer->mask + 1) * sizeof(int32_t));
}

static void layer_free(Layer *layer) {
    free(layer->states);
    free(layer->slots);
}

static void grow_slots(Layer *layer) {
    size_t size = (layer->mask + 1) * 2;
    free(layer->slots);
    layer->slots = checked(malloc(size * sizeof(int32_t)));
    memset(layer->slots, -1, size * sizeof(int32_t));
    layer->mask = size - 1;
    for (size_t i = 0; i < layer->count; i++) {
        uint64_t slot = hash(layer->states[i].key, layer->states[i].holders) & layer->mask;
        while (layer->slots[slot] >= 0) slot = (slot + 1) & layer->mask;
        layer->slots[slot] = (int32_t)i;
    }
}

/* Merge `best` into the state's front: the state's index if its front grew, -1 if not. */
static long merge(Layer *layer, uint32_t key, Holders holders, const int8_t *best) {
    uint64_t slot = hash(key, holders) & layer->mask;
    for (; layer->slots[slot] >= 0; slot = (slot + 1) & layer->mask) {
        State *state = &layer->states[layer->slots[slot]];
        if (state->key == key && state->holders == holders) {
            int grew = 0;
            for (int t = 0; t <= TOKENS; t++) {
                if (best[t] > state->best[t]) {
                    state->best[t] = best[t];
                    grew = 1;
                }
            }
            return grew ? layer->slots[slot] : -1;
        }
    }
    if (layer->count == layer->capacity) {
        layer->capacity *= 2;
        layer->states = checked(realloc(layer->states, layer->capacity * sizeof(State)));
    }
    State *state = &layer->states[layer->count];
    state->key = key;
    state->holders = holders;
    memcpy(state->best, best, sizeof state->best);
    layer->slots[slot] = (int32_t)layer->count;
    long index = (long)layer->count++;
    if (layer->count * 2 > layer->mask) grow_slots(layer);
    return index;
}

static void add(Layer *layer, uint32_t key, Holders holders, int tokens, int plain) {
    int8_t best[TOKENS + 1];
    for (int t = 0; t <= TOKENS; t++) best[t] = (int8_t)(t <= tokens ? plain : -1);
    merge(layer, key, holders, best);
}

static int seat_of(uint32_t key) { return (int)(key & 7); }
static int played_of(uint32_t key, int chain) { return (int)((key >> (3 + 3 * chain)) & 7); }
static int earned_of(uint32_t key) { return (int)(key >> 24); }
static uint32_t with_earned(uint32_t key, int earned) { return (key & 0xFFFFFFu) | ((uint32_t)earned << 24); }
static uint32_t passed(uint32_t key) { return (key & ~7u) | (uint32_t)((seat_of(key) + 1) % players); }

static int played_in_all(uint32_t key) {
    int sum = 0;
    for (int c = 0; c < chains; c++) sum += played_of(key, c);
    return sum;
}

static int is_point(const int8_t *best, int t) { return best[t] >= 0 && (t == TOKENS || best[t] > best[t + 1]); }

static int points(const int8_t *best) {
    int count = 0;
    for (int t = 0; t <= TOKENS; t++) count += is_point(best, t);
    return count;
}

/* Too few acts left for what is still needed (as `short` in probe_rotation.py). */
static int too_short(int left, int played, int plain, int earned) {
    int fives_left = earning_fives - earned;
    return left < (tracked - played) + (plain_needed - plain) + (fives_left > 0 ? fives_left : 0);
}

static Holders all_seats(int card) { return ((Holders)((1u << players) - 1)) << (players * card); }

/* The tracked cards the draw of `act` brings to `seat` (a copy of a card already played changes nothing). */
static Holders drawn(Holders holders, uint32_t key, int seat, int act) {
    if (act < 0) return holders;
    for (int k = 0; k < arriving_count[act]; k++) {
        int card = arriving[act][k];
        if (step_of[card] >= played_of(key, chain_of[card])) holders |= ((Holders)1 << seat) << (players * card);
    }
    return holders;
}

/* Each act of the state's seat from the point (tokens, plain, earned), into `into` (as `moves` in
 * probe_rotation.py); `act` is -1 in the final round, where the earning acts are part of the key. */
static void acts(Layer *into, uint32_t key, Holders holders, int tokens, int plain, int earned, int left, int act) {
    int seat = seat_of(key), played = played_in_all(key), final = act < 0;
    uint32_t next = (key & 0xFFFFF8u) | (uint32_t)((seat + 1) % players);
    for (int c = 0; c < chains; c++) {
        int step = played_of(key, c);
        if (step >= chain_length[c]) continue;
        int card = chain_cards[c][step];
        if (!((holders >> (players * card + seat)) & 1) || too_short(left, played + 1, plain, earned)) continue;
        uint32_t after = next + (1u << (3 + 3 * c));
        Holders hands = drawn(holders & ~all_seats(card), after, seat, act);
        int gained = tokens + five[card] > TOKENS ? TOKENS : tokens + five[card];
        add(into, final ? with_earned(after, earned) : after, hands, gained, plain);
    }
    Holders hands = drawn(holders, next, seat, act);
    if (earned < earning_allowed && !too_short(left, played, plain, earned + 1)) {
        add(into, final ? with_earned(next, earned + 1) : next, hands, tokens < TOKENS ? tokens + 1 : TOKENS, plain);
    }
    if (plain < plain_needed && !too_short(left, played, plain + 1, earned)) {
        add(into, final ? with_earned(next, earned) : next, hands, tokens, plain + 1);
    }
}

/* Hints before an act: a token each, the turn passes, until no front grows. */
static void hint(Layer *layer) {
    size_t pending = layer->count, capacity = layer->count + 1024;
    size_t *work = checked(malloc(capacity * sizeof(size_t)));
    for (size_t i = 0; i < pending; i++) work[i] = i;
    while (pending) {
        State state = layer->states[work[--pending]];
        int8_t best[TOKENS + 1];
        for (int t = 0; t < TOKENS; t++) best[t] = state.best[t + 1];
        best[TOKENS] = -1;
        if (best[0] < 0) continue;
        long grown = merge(layer, passed(state.key), state.holders, best);
        if (grown >= 0) {
            if (pending == capacity) work = checked(realloc(work, (capacity *= 2) * sizeof(size_t)));
            work[pending++] = (size_t)grown;
        }
    }
    free(work);
}

static int read_ints(int count, int *into) {
    for (int i = 0; i < count; i++)
        if (scanf("%d", &into[i]) != 1) return 0;
    return 1;
}

static int read_problem(void) {
    int head[9];
    if (!read_ints(9, head)) return 0;
    players = head[0], seat0 = head[1], tokens0 = head[2], drawing = head[3], tracked = head[4];
    chains = head[5], earning_allowed = head[6], plain_needed = head[7], earning_fives = head[8];
    if (players < 2 || players > 6 || tracked > MAX_TRACKED || tracked * players > 128 || chains > MAX_CHAINS) return 0;
    for (int i = 0; i < tracked; i++) {
        int card[4];
        if (!read_ints(4, card)) return 0;
        held0 |= (Holders)(unsigned)card[0] << (players * i);
        five[i] = card[1], chain_of[i] = card[2], step_of[i] = card[3];
    }
    for (int c = 0; c < chains; c++) {
        if (!read_ints(1, &chain_length[c]) || chain_length[c] > 7 || !read_ints(chain_length[c], chain_cards[c])) return 0;
    }
    arriving = checked(malloc((size_t)(drawing + 1) * sizeof(int *)));
    arriving_count = checked(malloc((size_t)(drawing + 1) * sizeof(int)));
    for (int a = 0; a < drawing; a++) {
        if (!read_ints(1, &arriving_count[a])) return 0;
        arriving[a] = checked(malloc((size_t)(arriving_count[a] + 1) * sizeof(int)));
        if (!read_ints(arriving_count[a], arriving[a])) return 0;
    }
    return 1;
}

/* Does some line of the relaxation play every needed card? */
static int search(void) {
    Layer layer;
    layer_init(&layer);
    add(&layer, (uint32_t)seat0, held0, tokens0, 0);
    for (int act = 0; act < drawing; act++) {
        hint(&layer);
        Layer next;
        layer_init(&next);
        for (size_t i = 0; i < layer.count; i++) {
            State state = layer.states[i];
            int played = played_in_all(state.key);
            visited += points(state.best);
            for (int t = TOKENS; t >= 0; t--) {
                if (!is_point(state.best, t)) continue;
                int earned = act - played - state.best[t]; /* every act so far earned or not */
                acts(&next, state.key, state.holders, t, state.best[t], earned, drawing - act - 1 + players, act);
            }
        }
        layer_free(&layer);
        layer = next;
        if (layer.count == 0) {
            layer_free(&layer);
            return 0;
        }
    }
    /* The final round: a turn each; a hint now uses a turn, so the earning acts join the key. */
    Layer turns;
    layer_init(&turns);
    for (size_t i = 0; i < layer.count; i++) {
        State state = layer.states[i];
        for (int t = TOKENS; t >= 0; t--) {
            if (!is_point(state.best, t)) continue;
            int earned = drawing - played_in_all(state.key) - state.best[t];
            add(&turns, with_earned(state.key, earned), state.holders, t, state.best[t]);
        }
    }
    layer_free(&layer);
    for (int turn = 0; turn < players; turn++) {
        int left = players - turn - 1;
        Layer after;
        layer_init(&after);
        for (size_t i = 0; i < turns.count; i++) {
            State state = turns.states[i];
            int played = played_in_all(state.key), earned = earned_of(state.key);
            visited += points(state.best);
            for (int t = TOKENS; t >= 0; t--) {
                if (!is_point(state.best, t)) continue;
                acts(&after, state.key, state.holders, t, state.best[t], earned, left, -1);
                if (t > 0 && !too_short(left, played, state.best[t], earned)) {
                    add(&after, passed(state.key), state.holders, t - 1, state.best[t]);
                }
            }
        }
        layer_free(&turns);
        turns = after;
    }
    int line = 0;
    for (size_t i = 0; i < turns.count && !line; i++) {
        State state = turns.states[i];
        if (played_in_all(state.key) == tracked && earned_of(state.key) >= earning_fives) {
            for (int t = 0; t <= TOKENS; t++) line |= state.best[t] == plain_needed;
        }
    }
    layer_free(&turns);
    return line;
}

int main(void) {
    if (!read_problem()) {
        fputs("probe_rotation: malformed or too large a problem on standard input\n", stderr);
        return 2;
    }
    struct timespec began, ended;
    clock_gettime(CLOCK_MONOTONIC, &began);
    int line = search();
    clock_gettime(CLOCK_MONOTONIC, &ended);
    double seconds = (double)(ended.tv_sec - began.tv_sec) + (double)(ended.tv_nsec - began.tv_nsec) / 1e9;
    printf("%s %lld %.4f\n", line ? "line" : "refuted", visited, seconds);
    return 0;
}
