"""Fitting a network's weights: the parameters of a
:class:`~bansugoroku_fast.evaluators.NetEvaluator` as a flat list, Adam, and
minibatch epochs.

Training fits the class that plays: its parameters are a
:class:`NetEvaluator`'s layers (``weights_0, ..., biases_0, ...``) held in
a list of float32 arrays that Adam updates in place, and every forward pass
and gradient is :func:`~bansugoroku_fast.evaluators.network.layer_outputs`
and :func:`~bansugoroku_fast.evaluators.network.loss_gradients`, the numpy
pass :meth:`NetEvaluator.forward` runs. :func:`evaluator` copies them into a
NetEvaluator to play (in the kernels) or to save.

>>> rng = np.random.default_rng(0)
>>> parameters = initial_parameters(4, (3,), rng)
>>> [p.shape for p in parameters]
[(4, 3), (3, 5), (3,), (5,)]
>>> predict(parameters, "sigmoid", np.zeros((2, 4), np.float32)).shape
(2, 5)
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from ..evaluators.network import NetEvaluator, consistent, layer_outputs, loss_gradients
from ..rules import Rules

__all__ = ["Adam", "evaluator", "fit_epochs", "gradients", "initial_parameters", "layers", "predict"]

Parameters = list[np.ndarray]


def initial_parameters(inputs: int, hidden: Sequence[int], rng: np.random.Generator) -> Parameters:
    """Glorot-uniform hidden weights; output weights zero, output biases at
    even odds of a single win and rarer doubles and triples.

    Zero output weights make every play score the same at first, so the
    first games play the first legal play (as ``"first"`` does): short
    games. Random hidden weights would play arbitrary structures instead,
    and in arrival mode such games run to hundreds of plies."""
    sizes = [inputs, *hidden, 5]
    weights = [rng.uniform(-1.0, 1.0, (a, b)) * math.sqrt(6.0 / (a + b)) for a, b in itertools.pairwise(sizes)]
    weights[-1] = np.zeros_like(weights[-1])
    biases = [np.zeros(size) for size in sizes[1:]]
    biases[-1] = np.array([0.0, -2.0, -4.0, -2.0, -4.0])
    return [np.ascontiguousarray(p, dtype=np.float32) for p in [*weights, *biases]]


def layers(parameters: Sequence[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The weights and the biases of a parameter list."""
    half = len(parameters) // 2
    return list(parameters[:half]), list(parameters[half:])


def predict(parameters: Sequence[np.ndarray], activation: str, inputs: np.ndarray) -> np.ndarray:
    """``float32[N, 5]``: the consistent outputs, as :meth:`NetEvaluator.forward` gives them."""
    weights, biases = layers(parameters)
    return consistent(layer_outputs(weights, biases, activation, inputs)[-1])


def gradients(parameters: Sequence[np.ndarray], activation: str, inputs: np.ndarray,
              targets: np.ndarray) -> tuple[list[np.ndarray], float]:
    """:func:`~bansugoroku_fast.evaluators.network.loss_gradients`, in parameter order."""
    weights, biases = layers(parameters)
    return loss_gradients(weights, biases, activation, inputs, targets)


def evaluator(parameters: Sequence[np.ndarray], rules: Rules, encoding: str, activation: str,
              endgames: bool = False) -> NetEvaluator:
    """A :class:`NetEvaluator` holding a copy of the parameters."""
    weights, biases = layers([p.copy() for p in parameters])
    return NetEvaluator(weights, biases, encoding=encoding, rules=rules, activation=activation, endgames=endgames)


class Adam:
    """Adam (Kingma and Ba) over a list of float32 arrays, updated in place."""

    def __init__(self, parameters: Sequence[np.ndarray], rate: float, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8) -> None:
        self.rate, self.beta1, self.beta2, self.eps = rate, beta1, beta2, eps
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]
        self.steps = 0

    def step(self, parameters: Sequence[np.ndarray], gradients: Sequence[np.ndarray]) -> None:
        self.steps += 1
        correction1 = 1.0 - self.beta1**self.steps
        correction2 = 1.0 - self.beta2**self.steps
        size = self.rate * math.sqrt(correction2) / correction1
        for p, g, m, v in zip(parameters, gradients, self.first, self.second):
            m *= self.beta1
            m += (1.0 - self.beta1) * g
            v *= self.beta2
            v += (1.0 - self.beta2) * g * g
            p -= (size * m / (np.sqrt(v) + self.eps)).astype(np.float32)

    def state(self) -> dict[str, np.ndarray]:
        """Its moments and step count, as arrays to save."""
        arrays = {f"adam_m_{k}": m for k, m in enumerate(self.first)}
        arrays.update({f"adam_v_{k}": v for k, v in enumerate(self.second)})
        arrays["adam_steps"] = np.int64(self.steps)
        return arrays

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """The state :meth:`state` saved (the same parameter shapes)."""
        self.first = [np.array(arrays[f"adam_m_{k}"], dtype=np.float32) for k in range(len(self.first))]
        self.second = [np.array(arrays[f"adam_v_{k}"], dtype=np.float32) for k in range(len(self.second))]
        self.steps = int(arrays["adam_steps"])


def fit_epochs(parameters: Sequence[np.ndarray], adam: Adam, activation: str, inputs: np.ndarray,
               targets: np.ndarray, epochs: int, minibatch: int, rng: np.random.Generator) -> float:
    """``epochs`` passes of Adam over ``(inputs, targets)`` in shuffled
    minibatches (the order from ``rng``); returns the last pass's mean loss."""
    loss = float("nan")
    for _ in range(epochs):
        order = rng.permutation(len(inputs))
        losses = []
        for start in range(0, len(order), minibatch):
            rows = order[start:start + minibatch]
            grads, batch_loss = gradients(parameters, activation, inputs[rows], targets[rows])
            adam.step(parameters, grads)
            losses.append(batch_loss)
        loss = float(np.mean(losses)) if losses else loss
    return loss
