/* The forward pass of bsf_net.h built for one instruction set (the flags
   the test compiles it with): a network of pseudo-random weights (an LCG,
   the same in every build) scores pseudo-random boards with and without
   features, one and two hidden layers, sigmoid and ReLU, from scratch
   (bsf_net_forward_range) and as children of other boards
   (bsf_net_child_sums, bsf_net_finish); each output is printed as hex
   floats, so that two builds can be compared bit for bit. */
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
    float* scratch = malloc(sizeof(float) * (size_t) bsf_net_scratch(net));
    float outputs[5 * 16], row[8];
    double equities[CHILDREN];
    for (int parent = 0; parent + CHILDREN < BOARDS; parent += 7) {
        const int32_t* parent_values = net->features ? values + 28 * parent : NULL;
        bsf_net_sums(net, boards + 52 * parent, parent_values, sums);
        for (int i = 0; i < 16; i++) {
            int child = parent + 1 + i;
            if (i < CHILDREN)
                bsf_net_child_sums(net, boards + 52 * parent, parent_values, sums, boards + 52 * child,
                                   net->features ? values + 28 * child : NULL, scratch, row);
            for (int k = 0; k < 5; k++) outputs[16 * k + i] = i < CHILDREN ? row[k] : 0.0f;
        }
        bsf_net_finish(outputs, 16, CHILDREN, equities);
        for (int i = 0; i < CHILDREN; i++) {
            for (int k = 0; k < 5; k++) printf("%a\n", outputs[16 * k + i]);
            printf("%a\n", equities[i]);
        }
    }
    free(sums);
    free(scratch);
}

static void run(int hidden1, int hidden2, int relu, int features, uint64_t feature_mask) {
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
    bsf_net_prepare(&net);
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
    run(8, 0, 0, 0, 0);
    run(80, 0, 0, 0, 0);
    run(45, 0, 1, 28, 0xFFFFFFF);
    run(64, 37, 0, 28, 0xA505A05);
    run(128, 64, 1, 0, 0);
    run(128, 0, 1, 28, 0x3500D40);
    run(72, 0, 0, 28, 0xFFFFFFF);
    return 0;
}
