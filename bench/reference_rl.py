"""PyTorch side of bench/rl_bench.cpp: REINFORCE on CartPole with the same algorithm (policy
4-32-2 tanh, Adam 0.01, 16 episodes per iteration stepped in lockstep with one policy evaluation
per step, gamma 0.99, average-return baseline, normalised advantages, one update per iteration)
and a Python CartPole with Gymnasium CartPole-v1's equations (Gymnasium is not packaged in
Debian). One thread. Prints one JSON object:
{"float32": {...}, "float64": {...}} with, per precision, "steps_per_second" (60 iterations from
seed 1) and "solve_steps" (for seeds 0..4: environment steps until the mean return of the last
100 episodes is >= 475, at most 400 iterations; -1 when not reached).
Usage: reference_rl.py FILTER"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import collections
import json
import math
import sys
import time

import numpy as np
import torch

from reference_common import blas_description  # noqa: E402

torch.set_num_threads(1)


class CartPole:
    """Gymnasium CartPole-v1: Euler steps of 0.02 s, terminated at |x| > 2.4 or |theta| > 12 degrees, 500 steps."""

    def __init__(self, rng):
        self.state = rng.uniform(-0.05, 0.05, size=4)
        self.steps = 0

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        c, s = math.cos(theta), math.sin(theta)
        t = (force + 0.05 * theta_dot * theta_dot * s) / 1.1
        theta_acc = (9.8 * s - c * t) / (0.5 * (4.0 / 3.0 - 0.1 * c * c / 1.1))
        x_acc = t - 0.05 * theta_acc * c / 1.1
        self.state = np.array([x + 0.02 * x_dot, x_dot + 0.02 * x_acc, theta + 0.02 * theta_dot,
                               theta_dot + 0.02 * theta_acc])
        self.steps += 1
        terminated = abs(self.state[0]) > 2.4 or abs(self.state[2]) > 12 * 2 * math.pi / 360
        return self.state, 1.0, terminated, (not terminated) and self.steps >= 500


def policy_network(dtype):
    return torch.nn.Sequential(torch.nn.Linear(4, 32), torch.nn.Tanh(), torch.nn.Linear(32, 2)).to(dtype)


def rollouts(policy, rng, dtype, episodes=16):
    envs = [CartPole(rng) for _ in range(episodes)]
    current = [e.state for e in envs]
    obs, acts, rews = [[] for _ in envs], [[] for _ in envs], [[] for _ in envs]
    running = list(range(episodes))
    while running:
        with torch.no_grad():
            logits = policy(torch.tensor(np.array([current[i] for i in running]), dtype=dtype))
            actions = torch.multinomial(torch.softmax(logits, dim=1), 1).squeeze(1).tolist()
        still = []
        for i, a in zip(running, actions):
            obs[i].append(current[i])
            acts[i].append(a)
            state, r, terminated, truncated = envs[i].step(a)
            rews[i].append(r)
            current[i] = state
            if not (terminated or truncated):
                still.append(i)
        running = still
    return obs, acts, rews


def returns_to_go(rewards, gamma=0.99):
    q, running = np.empty(len(rewards)), 0.0
    for t in range(len(rewards) - 1, -1, -1):
        running = rewards[t] + gamma * running
        q[t] = running
    return q


def train(seed, dtype, iterations, stop_at_solved):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    policy = policy_network(dtype)
    adam = torch.optim.Adam(policy.parameters(), lr=1e-2)
    last = collections.deque(maxlen=100)
    steps = 0
    for it in range(iterations):
        obs, acts, rews = rollouts(policy, rng, dtype)
        returns = np.concatenate([returns_to_go(r) for r in rews])
        steps += len(returns)
        last.extend(sum(r) for r in rews)
        if stop_at_solved and len(last) == 100 and sum(last) / 100 >= 475:
            return steps, it + 1
        adv = returns - returns.mean()
        adv = adv / (math.sqrt((adv * adv).mean()) + 1e-8)
        x = torch.tensor(np.concatenate([np.array(o) for o in obs]), dtype=dtype)
        a = torch.tensor(np.concatenate(acts), dtype=torch.int64)
        log_p = torch.log_softmax(policy(x), dim=1).gather(1, a[:, None]).squeeze(1)
        loss = -(torch.tensor(adv, dtype=dtype) * log_p).mean()
        adam.zero_grad()
        loss.backward()
        adam.step()
    return (-1 if stop_at_solved else steps), iterations


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    results = {}
    for name, dtype in (("float32", torch.float32), ("float64", torch.float64)):
        out = {}
        if wanted in "rl_reinforce_throughput":
            t0 = time.perf_counter()
            steps, _ = train(1, dtype, 60, False)
            out["steps_per_second"] = steps / (time.perf_counter() - t0)
        if any(wanted in f"rl_reinforce_solve_seed{s}" for s in range(5)):
            out["solve_steps"] = [train(s, dtype, 400, True)[0] for s in range(5)]
        results[name] = out
    results["blas"] = blas_description()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
