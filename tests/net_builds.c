/* The forward pass of bsf_net.h built for one instruction set (the flags
   the test compiles it with): a network of pseudo-random weights (an LCG,
   the same in every build) scores pseudo-random boards with and without
   features, one and two hidden layers, sigmoid and ReLU, from scratch
   (bsf_net_forward_range) and as children of other boards
   (bsf_net_children_sums, bsf_net_finish), and exact networks (weights on
   their integer grid, children in 16-bit integers); each output is
   printed as hex floats, so that two builds can be compared bit for bit. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include "bsf_net.h"

static uint64_t state = 12345;
static double uniform(void) {    /* in [-1, 1) */
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double) (state >> 11) / 4503599627370496.0 - 1.0;
}

static float* floats(int64_t n, double scale) {
    float* a = malloc(sizeof(float) * (size_t) (n > 0 ? n : 1));
    for (int64_t i = 0; i < n; i++) a[i] = (float) (uniform() * scale);
    return a;
}

/* The children of each parent board: the next CHILDREN boards. */
enum { BOARDS = 500, CHILDREN = 12 };

static void children(const bsf_net* net, const signed char* boards, const int32_t* values) {
    float* sums = malloc(sizeof(float) * (size_t) bsf_net_scratch(net));
    int16_t* sums16 = malloc(sizeof(int16_t) * (size_t) net->hidden1);
    float* scratch = malloc(sizeof(float) * (size_t) bsf_net_scratch(net));
    float outputs[5 * 16];
    double equities[CHILDREN];
    for (int parent = 0; parent + CHILDREN < BOARDS; parent += 7) {
        const int32_t* parent_values = net->features ? values + 28 * parent : NULL;
        const signed char* kids[CHILDREN];
        for (int i = 0; i < CHILDREN; i++) kids[i] = boards + 52 * (parent + 1 + i);
        if (net->exact)
            bsf_net_exact_sums(net, boards + 52 * parent, parent_values, sums16);
        else
            bsf_net_sums(net, boards + 52 * parent, parent_values, sums);
        bsf_net_children_sums(net, boards + 52 * parent, parent_values, sums, net->exact ? sums16 : NULL, kids,
                              net->features ? values + 28 * (parent + 1) : NULL, 28, CHILDREN, scratch, outputs, 16);
        bsf_net_finish(outputs, 16, CHILDREN, equities);
        for (int i = 0; i < CHILDREN; i++) {
            for (int k = 0; k < 5; k++) printf("%a\n", outputs[16 * k + i]);
            printf("%a\n", equities[i]);
        }
    }
    free(sums);
    free(sums16);
    free(scratch);
}

/* An exact network's arrays: its rows (thresholds, fourth units, bar,
   borne off, features: one array) integers in [-64, 64) in units of 2^-8,
   its output weights in [-2048, 2048) in units of 2^-10, so that every sum
   stays well within int16. */
static void exact_arrays(bsf_net* net) {
    const int64_t n1 = net->hidden1, points = 2 * 24 * 3 * n1;
    const int64_t count = points + 2 * 24 * n1 + 4 * n1 + (int64_t) net->features * n1;
    float* rows = malloc(sizeof(float) * (size_t) count);
    int16_t* rows16 = malloc(sizeof(int16_t) * (size_t) count);
    for (int64_t i = 0; i < count; i++) {
        rows16[i] = (int16_t) (uniform() * 64);
        rows[i] = rows16[i] / BSF_NET_EXACT_FIRST;
    }
    float* point_rows = malloc(sizeof(float) * (size_t) points);    /* thresholds summed */
    int16_t* point16 = malloc(sizeof(int16_t) * (size_t) points);
    for (int64_t i = 0; i < points; i++) {
        point16[i] = (int16_t) (rows16[i] + (i / n1 % 3 > 0 ? point16[i - n1] : 0));
        point_rows[i] = point16[i] / BSF_NET_EXACT_FIRST;
    }
    int16_t* out16 = malloc(sizeof(int16_t) * (size_t) (5 * n1));
    float* out_weights = malloc(sizeof(float) * (size_t) (5 * n1));
    for (int64_t i = 0; i < 5 * n1; i++) {
        out16[i] = (int16_t) (uniform() * 2048);
        out_weights[i] = out16[i] / BSF_NET_EXACT_OUT;
    }
    float* bias1 = malloc(sizeof(float) * (size_t) n1);
    int16_t* bias16 = malloc(sizeof(int16_t) * (size_t) n1);
    for (int64_t j = 0; j < n1; j++) {
        bias16[j] = (int16_t) (uniform() * 256);
        bias1[j] = bias16[j] / BSF_NET_EXACT_FIRST;
    }
    net->point_rows = point_rows;
    net->threshold_rows = rows;
    net->excess_rows = rows + points;
    net->bar_rows = net->excess_rows + 2 * 24 * n1;
    net->off_rows = net->bar_rows + 2 * n1;
    net->feature_rows = net->off_rows + 2 * n1;
    net->bias1 = bias1;
    net->out_weights = out_weights;
    net->exact = 1;
    net->rows16 = rows16;
    net->out16 = out16;
    net->point16 = point16;
    net->bias16 = bias16;
}

static void run(int hidden1, int hidden2, int relu, int features, uint64_t feature_mask, int exact) {
    bsf_net net = {hidden1, hidden2, relu, features, feature_mask};
    int last = hidden2 ? hidden2 : hidden1;
    net.point_rows = floats(2 * 24 * 3 * hidden1, 0.3);
    net.threshold_rows = floats(2 * 24 * 3 * hidden1, 0.3);
    net.excess_rows = floats(2 * 24 * hidden1, 0.3);
    net.bar_rows = floats(2 * hidden1, 0.3);
    net.off_rows = floats(2 * hidden1, 0.3);
    net.feature_rows = floats((int64_t) features * hidden1, 0.05);
    net.bias1 = floats(hidden1, 0.3);
    net.weights2 = floats((int64_t) hidden1 * hidden2, 0.3);
    net.bias2 = floats(hidden2, 0.3);
    net.out_weights = floats(5 * last, 0.5);
    net.out_bias = floats(5, 0.5);
    if (exact) exact_arrays(&net);
    bsf_net_prepare(&net);
    if (bsf_net_places_size(&net)) bsf_net_fill_places(&net, malloc(sizeof(int16_t) * (size_t) bsf_net_places_size(&net)));
    signed char* boards = calloc(BOARDS, 52);
    int32_t* values = calloc(BOARDS * 28, sizeof(int32_t));
    for (int b = 0; b < BOARDS; b++) {
        for (int row = 0; row < 2; row++)
            for (int stone = 0; stone < 15; stone++)
                boards[52 * b + 26 * row + (int) ((uniform() + 1) * 13)]++;
        for (int f = 0; f < 28; f++) values[28 * b + f] = (int32_t) ((uniform() + 1) * 20);
    }
    float* out = malloc(sizeof(float) * 5 * BOARDS);
    float* scratch = malloc(sizeof(float) * (size_t) bsf_net_scratch(&net));
    bsf_net_forward_range(&net, boards, 52, features ? values : NULL, 0, BOARDS, out, scratch);
    for (int i = 0; i < 5 * BOARDS; i++) printf("%a\n", out[i]);
    children(&net, boards, values);
}

int main(void) {
    run(8, 0, 0, 0, 0, 0);
    run(80, 0, 0, 0, 0, 0);
    run(45, 0, 1, 28, 0xFFFFFFF, 0);
    run(64, 37, 0, 28, 0xA505A05, 0);
    run(128, 64, 1, 0, 0, 0);
    run(128, 0, 1, 28, 0x3500D40, 0);
    run(72, 0, 0, 28, 0xFFFFFFF, 0);
    run(144, 0, 1, 28, 0x3500D40, 1);    /* exact: a whole block and 16 units */
    run(32, 0, 1, 0, 0, 1);
    run(128, 0, 1, 28, 0x3500D40, 1);    /* exact: one block (the vector builds read the place table) */
    return 0;
}
