"""`engine simulate --backend ray` (issue 32, item 4): the games on Ray actors, each loading
the pack once from the files the run sends, on a local Ray instance started for the test;
the same games as the local process pool for the same seeds.

Ray comes with the test extra (`ray`); without it the tests skip, unless
ENGINE_RAY_TESTS=required (set by .ci/run): then they fail."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

try:
    import ray
except ImportError:
    if os.environ.get("ENGINE_RAY_TESTS") == "required":
        pytest.fail("the Ray tests are required here: pip install '.[ray]'", pytrace=False)
    pytest.skip("Ray is not installed (pip install '.[ray]')", allow_module_level=True)

from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.cli import main  # noqa: E402
from engine.frontends.simulate import simulate  # noqa: E402
from engine.frontends.simulate.ray_backend import pack_files, play_ray  # noqa: E402
from engine.frontends.simulate.workers import play_parallel  # noqa: E402

PACKS = Path(__file__).resolve().parent / "packs"


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One local Ray instance for the module (starting one takes seconds): play_ray uses the
    instance it finds and leaves it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_plays_the_games_the_pool_plays_for_200_seeds(tmp_path):
    # a copy of a pack in a folder of its own: the actors load it from the files sent
    root = tmp_path / "testgame"
    shutil.copytree(PACKS / "testgame", root)
    pack = load_pack(root)
    seeds = list(range(200))
    specs = ["random", "random"]
    on_ray: list[dict] = []
    by_ray = play_ray(pack, str(root), seeds, specs, 1000, False, 2, on_ray.append)
    by_pool = play_parallel(pack, str(root), seeds, specs, 1000, False, 2, None)
    assert by_ray == by_pool and len(by_ray) == 200
    assert sorted(r["seed"] for r in on_ray) == seeds  # each game reported as it finished
    assert {r["status"] for r in by_ray} == {"over"}


def test_the_files_sent_are_the_pack_and_those_it_imports():
    pack = load_pack(PACKS / "roadgame")  # imports roadmap, beside it
    files = pack_files(pack, str(PACKS / "roadgame"))
    assert "roadgame/pack.yaml" in files and "roadmap/pack.yaml" in files
    assert not [f for f in files if "__pycache__" in f]


def test_simulate_from_the_command_line_on_ray(capsys):
    code = main(["simulate", str(PACKS / "roadgame"), "--games", "12", "--workers", "2",
                 "--backend", "ray", "--json", "--no-progress"])
    on_ray = json.loads(capsys.readouterr().out)
    assert code == 0 and on_ray["backend"] == "ray" and on_ray["errors"] == []
    local = simulate(PACKS / "roadgame", 12, workers=2)
    assert {k: on_ray[k] for k in ("wins", "draws", "mean_decisions")} == {
        k: local[k] for k in ("wins", "draws", "mean_decisions")}


def test_a_bad_backend_or_an_address_without_ray_is_refused():
    with pytest.raises(ValueError, match="no backend 'spark'"):
        simulate(PACKS / "testgame", 1, backend="spark")
    with pytest.raises(ValueError, match="--address names a Ray cluster"):
        simulate(PACKS / "testgame", 1, address="auto")


def test_balance_on_ray_keeps_the_games_the_pool_keeps(tmp_path):
    # engine balance --backend ray: the same records as the local pool, for the same seeds
    from engine.frontends.balance.collect import Job, run_jobs
    pack = load_pack(PACKS / "balancegame")
    jobs = [Job("pack", pack, str(PACKS / "balancegame"), ["random", "random"],
                list(range(20)))]
    on_ray = run_jobs(jobs, tmp_path / "ray", workers=2, backend="ray")
    local = run_jobs(jobs, tmp_path / "local", workers=2)
    assert on_ray == local and len(next(iter(on_ray.values()))) == 20
    assert (tmp_path / "ray" / "games.jsonl").read_text().count("\n") == 20
