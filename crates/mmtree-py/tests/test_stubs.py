"""The type stubs describe the module as built: the same names, the same parameters."""

import ast
import inspect
import pathlib

import mmtree

STUBS = pathlib.Path(__file__).resolve().parents[1] / "python" / "mmtree" / "_mmtree.pyi"


def stub_definitions():
    tree = ast.parse(STUBS.read_text())
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    constants = {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    return functions, classes, constants


def parameters(node):
    args = node.args
    return [a.arg for a in args.posonlyargs + args.args] + [a.arg for a in args.kwonlyargs]


def test_stubs_name_every_export():
    functions, classes, constants = stub_definitions()
    assert sorted([*functions, *classes, *constants]) == sorted(mmtree.__all__)


def test_stub_parameters_match_the_functions():
    functions, classes, _ = stub_definitions()
    for name, node in functions.items():
        built = inspect.signature(getattr(mmtree, name))
        assert parameters(node) == list(built.parameters), name
    for name, node in classes.items():
        cls = getattr(mmtree, name)
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                assert hasattr(cls, item.name), f"{name}.{item.name}"
                member = getattr(cls, item.name)
                if callable(member) and not isinstance(member, property):
                    built = inspect.signature(member)
                    assert parameters(item) == list(built.parameters), f"{name}.{item.name}"


def test_stub_constructors_match():
    _, classes, _ = stub_definitions()
    init = next(i for i in classes["Game"].body if isinstance(i, ast.FunctionDef) and i.name == "__init__")
    assert parameters(init) == ["self", *inspect.signature(mmtree.Game).parameters]
    # A Tree comes from solve, load or optimal only.
    assert not any(isinstance(i, ast.FunctionDef) and i.name == "__init__" for i in classes["Tree"].body)
