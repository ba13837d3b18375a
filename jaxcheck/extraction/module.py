"""The second pass over a module: LibCST nodes in, `ModuleFacts` out."""

from __future__ import annotations

import ast

import libcst as cst

from jaxcheck import facts as f
from jaxcheck.extraction.builder import (
    CLASS_VARIABLE,
    CLASS_VARIABLES,
    KEPT_DEEP,
    STATIC_MARKERS,
    TYPING_WRAPPERS,
    WRAPPING_CALLS,
    Context,
    FactsBuilder,
    name_value,
)
from jaxcheck.extraction.cst_scopes import cst_scopes
from jaxcheck.extraction.scopes import CLASS, FUNCTION, Scope
from jaxcheck.extraction.tree import Positions, all_parameters, body_statements, children, dotted_name, walk

_CONSTANTS = {"True": True, "False": False, "None": None}
_CONTAINERS = (cst.Tuple, cst.List, cst.Set, cst.Dict)
_DISPLAYS = frozenset({cst.Tuple, cst.List, cst.Set})
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
_NUMBERS_AND_STRINGS = frozenset({cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString})


def extract_facts(tree: cst.Module, path: str, module_name: str, is_package: bool) -> f.ModuleFacts:
    return _Extractor(tree, path, module_name, is_package).run()


class _Extractor(FactsBuilder):
    """The facts of LibCST's tree: its statements, values and positions."""

    def __init__(self, tree: cst.Module, path: str, module_name: str, is_package: bool) -> None:
        super().__init__(tree, path, module_name, cst_scopes(tree, module_name, is_package))
        self.positions = Positions(tree)


    # Statements

    def statement(self, node: cst.CSTNode, scope: Scope) -> None:
        if isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                self.small_statement(small, scope)
        elif isinstance(node, cst.FunctionDef):
            self.function(node, scope)
        elif isinstance(node, cst.ClassDef):
            self.class_(node, scope)
        else:
            self.compound(node, scope)

    def compound(self, node: cst.CSTNode, scope: Scope) -> None:
        """if/for/while/try/with/match: scan the header, bind targets, descend."""
        function = self._function_of(scope)
        branches = not isinstance(node, cst.With)  # a `with` body always runs
        self.branch_depth[function] = self.branch_depth.get(function, 0) + branches
        if isinstance(node, (cst.For, cst.While)):
            if isinstance(node, cst.For):
                self.scan(node.iter, scope)  # evaluated once, before the first turn
            self.loop_depth[function] = self.loop_depth.get(function, 0) + 1
            self._compound(node, scope)
            self.loop_depth[function] -= 1
        else:
            self._compound(node, scope)
        self.branch_depth[function] -= branches

    def _compound(self, node: cst.CSTNode, scope: Scope) -> None:
        blocks = []
        for child in children(node):
            if isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                blocks.append(child)
            elif isinstance(child, (cst.Else, cst.Finally, cst.If, cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase)):
                self.compound(child, scope)
            elif isinstance(child, cst.WithItem):
                self.scan(child.item, scope)
                if child.asname is not None:
                    self.bind_target(child.asname.name, None, scope)
            elif isinstance(child, cst.AsName):
                self.bind_target(child.name, None, scope)
            elif isinstance(node, cst.For) and child is node.target:
                self.bind_target(child, None, scope)
            elif isinstance(node, cst.For) and child is node.iter:
                continue  # scanned outside the loop
            elif isinstance(child, cst.BaseExpression):
                self.scan(child, scope)
        for block in blocks:
            if isinstance(block, cst.SimpleStatementSuite):
                for small in block.body:
                    self.small_statement(small, scope)
            else:
                self.statements(block.body, scope)

    def small_statement(self, node: cst.CSTNode, scope: Scope) -> None:
        if isinstance(node, cst.Assign):
            value = self.value(node.value, scope)
            for target in node.targets:
                self.bind_target(target.target, value if len(node.targets) == 1 else None, scope)
            target = node.targets[0].target
            if len(node.targets) == 1 and isinstance(target, cst.Name) and self._makes_function(value):
                self._track(scope, target.value, value.location)
            self.scan(node.value, scope)
        elif isinstance(node, cst.AnnAssign):
            value = self.value(node.value, scope) if node.value is not None else None
            if scope.kind == CLASS and isinstance(node.target, cst.Name):
                self._class_attributes[-1].append(
                    f.ClassAttribute(
                        node.target.value,
                        self.location(node),
                        self.annotation_refs(node.annotation.annotation, scope),
                        value,
                    )
                )
            elif value is not None or not isinstance(node.target, cst.Name):
                self.bind_target(node.target, value, scope)
            if node.value is not None:
                self.scan(node.value, scope)
        elif isinstance(node, cst.AugAssign):
            self.bind_target(node.target, None, scope)
            self.scan(node.value, scope)
        elif isinstance(node, cst.Del):
            self.bind_target(node.target, None, scope)
        elif isinstance(node, cst.Return):
            if node.value is not None:
                self.scan(node.value, scope)
                if scope.kind == FUNCTION:
                    self.returns.setdefault(scope.qualname, []).append(self.value(node.value, scope))
        elif isinstance(node, (cst.Expr, cst.Raise, cst.Assert)):
            if isinstance(node, cst.Raise) and scope.kind == FUNCTION:
                self.raising.add(scope.qualname)
            if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
                value = self.value(node.value, scope)
                if self._makes_function(value):
                    self.discarded.append(value.location)
                    if self.loop_depth.get(self._function_of(scope), 0):
                        self.looped.append(value.location)
            for child in children(node):
                self.scan(child, scope)

    def bind_target(self, target: cst.CSTNode, value: f.Value | None, scope: Scope) -> None:
        """Record what an assignment, `del`, loop or `with` binds or writes."""
        location = self.location(target)
        if isinstance(target, cst.Name):
            if scope.kind == CLASS:
                self._class_attributes[-1].append(f.ClassAttribute(target.value, location, (), value))
                return
            ref = scope.binding_ref(target.value)
            known = self.tracked.get((scope.qualname, target.value)) if scope.kind == FUNCTION else None
            if known is not None:
                known.escapes = True  # bound again: which value a use sees is not followed
            function = self._function_of(scope)
            conditional = self.branch_depth.get(function, 0) > 0
            self.bindings.append(f.Binding(ref, value or f.Value(f.OTHER, location), location, function, conditional))
        elif isinstance(target, (cst.Tuple, cst.List)):
            # `self.a, self.b = x, y` gives each target its own value.
            paired = (
                value is not None
                and value.kind in (f.TUPLE, f.LIST)
                and len(value.args) == len(target.elements)
                and not any(isinstance(element, cst.StarredElement) for element in target.elements)
                and not any(element.literal == "*" for element in value.args)
            )
            for number, element in enumerate(target.elements):
                self.bind_target(element.value, value.args[number] if paired else None, scope)
        elif isinstance(target, cst.StarredElement):
            self.bind_target(target.value, None, scope)
        elif isinstance(target, cst.Attribute):
            base = dotted_name(target.value)
            if base is not None:
                self.writes.append(
                    f.AttributeWrite(
                        scope.resolve_dotted(base), target.attr.value, location, self._function_of(scope), value
                    )
                )
            else:
                self.scan(target.value, scope)
        elif isinstance(target, cst.Subscript):
            container = dotted_name(target.value)
            if container is not None:
                self.item_writes.append(f.ItemWrite(scope.resolve_dotted(container), location, self._function_of(scope)))
            self.scan(target, scope)

    # Definitions

    def function(self, node: cst.FunctionDef, scope: Scope) -> None:
        inner = self.scopes.of(node)
        self.function_scopes[inner.qualname] = inner
        for decorator in node.decorators:
            self.scan(decorator.decorator, scope)
        if node.decorators and scope.kind == FUNCTION:
            self._track(scope, node.name.value, self.location(node))
        parameters = []
        for param, kind in all_parameters(node.params):
            annotation = ()
            if param.annotation is not None:
                annotation = self.annotation_refs(param.annotation.annotation, scope)
            if param.default is not None:
                self.scan(param.default, scope)
            parameters.append(f.Parameter(param.name.value, kind, annotation))
        loop_depth = self.loop_depth.get(self._function_of(scope), 0) if scope.kind != CLASS else 0
        if loop_depth:
            self.defined_in_loop.add(inner.qualname)
        self.functions.append(
            f.FunctionFacts(
                qualname=inner.qualname,
                name=node.name.value,
                location=self.location(node),
                parameters=tuple(parameters),
                decorators=tuple(self.value(decorator.decorator, scope) for decorator in node.decorators),
                uses=(),
                class_qualname=scope.qualname if scope.kind == CLASS else "",
                loop_depth=loop_depth,
            )
        )
        self.statements(body_statements(node.body), inner)

    def class_(self, node: cst.ClassDef, scope: Scope) -> None:
        inner = self.scopes.of(node)
        for decorator in node.decorators:
            self.scan(decorator.decorator, scope)
        bases, keywords = [], []
        for arg in node.bases:
            self.scan(arg.value, scope)
            name = dotted_name(arg.value)
            if isinstance(arg.value, cst.Subscript):  # Generic[T], NamedTuple-like bases
                name = dotted_name(arg.value.value)
            bases.append(scope.resolve_dotted(name) if name is not None else None)
        for arg in node.keywords:
            self.scan(arg.value, scope)
            name = dotted_name(arg.value)
            key = arg.keyword.value if arg.keyword is not None else "**"
            keywords.append((key, scope.resolve_dotted(name) if name is not None else None))
        self._class_attributes.append([])
        first_function = len(self.functions)
        self.statements(body_statements(node.body), inner)
        attributes = self._class_attributes.pop()
        methods = tuple(
            function.qualname
            for function in self.functions[first_function:]
            if function.class_qualname == inner.qualname
        )
        self.classes.append(
            f.ClassFacts(
                qualname=inner.qualname,
                name=node.name.value,
                location=self.location(node),
                bases=tuple(bases),
                keywords=tuple(keywords),
                decorators=tuple(self.value(decorator.decorator, scope) for decorator in node.decorators),
                methods=methods,
                attributes=tuple(attributes),
            )
        )

    # Expressions

    def scan(self, node: cst.CSTNode, scope: Scope) -> None:
        """Record the calls in an expression and how it uses parameters."""
        # Each node goes with its parent, the names lambdas and comprehensions
        # shadow, and where it sits: the lambdas around it, and whether a
        # comprehension repeats it.
        outside = Context((), False)
        stack: list[tuple[cst.CSTNode, cst.CSTNode | None, frozenset[str], Context]] = [(node, None, frozenset(), outside)]
        while stack:
            current, parent, shadowed, context = stack.pop()
            node_type = type(current)  # LibCST's node classes are final: `is` spares isinstance's ABC check
            if node_type is cst.Name:
                self._name_use(current, parent, shadowed, scope, context)
                continue
            if node_type is cst.Call:
                self._call(current, scope, shadowed, context)
                # Arguments are pushed with the call as their parent, so that a
                # parameter passed on is known by what it is passed to.
                stack.append((current.func, current, shadowed, context))
                for arg in current.args:
                    stack.append((arg.value, current, shadowed, context))
                continue
            elif node_type is cst.Lambda:
                # Defaults are read where the lambda is made; the body sees its parameters.
                parameters = all_parameters(current.params)
                for param, _ in parameters:
                    if param.default is not None:
                        stack.append((param.default, param, shadowed, context))
                inner = shadowed | frozenset(param.name.value for param, _ in parameters)
                body = Context((*context.lambdas, self.location(current)), context.repeated)
                stack.append((current.body, current, inner, body))
                continue
            elif node_type in _COMPREHENSIONS:
                # The first iterable is evaluated once, where the comprehension is;
                # the rest runs on every item.
                first = current.for_in
                stack.append((first.iter, current, shadowed, context))
                inner = shadowed | _comprehension_targets(first)
                repeated = Context(context.lambdas, True)
                for child in children(current):
                    parts = [part for part in children(child) if part is not first.iter] if child is first else [child]
                    stack.extend((part, child if child is first else current, inner, repeated) for part in parts)
                continue
            elif node_type is cst.Attribute:
                # Only the object is a name use; `.attr` is not. A whole chain
                # `p.solver.dt` is one use of `p`, with the chain as its parent.
                base = current.value
                while type(base) is cst.Attribute:
                    base = base.value
                stack.append((base if isinstance(base, cst.Name) else current.value, current, shadowed, context))
                continue
            for child in children(current):
                stack.append((child, current, shadowed, context))

    def _name_use(self, node: cst.Name, parent, shadowed: frozenset[str], scope: Scope, context: Context) -> None:
        name = node.value
        if name in shadowed or name in _CONSTANTS:
            return
        ref = scope.resolve(name)
        reader = self._function_of(scope)
        if reader and (ref.function != reader if ref.is_local else self._own_global(ref, name, scope)):
            chain = dotted_name(parent).split(".")[1:] if isinstance(parent, cst.Attribute) else ()
            self.outer_reads.setdefault(reader, set()).add(ref.attribute(*chain) if chain else ref)
        if ref.is_local:
            function, local = ref.function, ref.name
        else:
            function, _, local = ref.name.rpartition(".")  # a def nested in a function is named by its qualname
        function_scope = self.function_scopes.get(function)
        if function_scope is None:
            return
        if not ref.is_local or local not in function_scope.parameters:
            tracked = self.tracked.get((function, local))
            if tracked is not None:
                if isinstance(parent, cst.Call) and parent.func is node and not context.lambdas and scope.qualname == function:
                    tracked.calls.append(self.loop_depth.get(function, 0) + context.repeated)
                elif isinstance(parent, cst.Call) and not context.lambdas and scope.qualname == function:
                    tracked.passed = True  # handed to a call: it lives as long as that call keeps it
                else:
                    tracked.escapes = True
            return
        chain = tuple(dotted_name(parent).split(".")[1:]) if isinstance(parent, cst.Attribute) else ()
        if chain and (context.lambdas or scope.qualname != function):
            self._closure_read(ref.attribute(*chain), function, scope, context)
        reads, opaque, passed_to = self.parameter_uses.setdefault((function, local), (set(), [], set()))
        if chain:
            reads.add(chain)
        elif isinstance(parent, cst.Comparison) and all(
            isinstance(target.operator, (cst.Is, cst.IsNot)) for target in parent.comparisons
        ):
            return
        elif isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, (cst.Is, cst.IsNot)):
            return
        elif isinstance(parent, cst.Call) and parent.func is not node:
            callee = dotted_name(parent.func)
            passed_to.add(scope.resolve_dotted(callee) if callee is not None else None)
        elif not opaque:
            opaque.append(True)

    def _kept_depth(self, node: cst.CSTNode, scope: Scope) -> int:
        if isinstance(node, cst.Tuple) and len(node.elements) == 2:
            return 2  # `children, aux_data`, as a flatten returns them
        if not isinstance(node, cst.Call):
            return 1
        if isinstance(node.func, cst.Call):
            return 2
        callee = dotted_name(node.func)
        kept = KEPT_DEEP.get(scope.resolve_dotted(callee).dotted, 1) if callee is not None else 1
        # The elements of a tuple (or a `**{...}`) passed are what a static argument hashes.
        if any(isinstance(arg.value, _CONTAINERS) or self._wraps(arg.value, scope) for arg in node.args):
            return max(kept, 2)
        # A transform of what a call returns (`jax.jit(checked(self.step))`): the model
        # looks through a project decorator to the function it wraps.
        if callee is not None and callee.rpartition(".")[2] in f.TRANSFORM_NAMES and node.args:
            if isinstance(node.args[0].value, cst.Call):
                return max(kept, 2)
        return kept

    @staticmethod
    def _wraps(node: cst.BaseExpression, scope: Scope) -> bool:
        """A call whose arguments matter where it is passed: a container built from
        the values written (`frozenset((a, b))`, `dict(cfg=cfg)`), or a function
        wrapped before it is jitted (`jax.jit(jax.vmap(fn))`)."""
        if not isinstance(node, cst.Call):
            return False
        callee = dotted_name(node.func)
        return callee is not None and scope.resolve_dotted(callee).dotted in WRAPPING_CALLS

    def _value(self, node: cst.CSTNode, scope: Scope, shadowed: frozenset[str], depth: int) -> f.Value:
        location = self.location(node)
        node_type = type(node)
        if node_type is cst.Name and node.value in _CONSTANTS:
            return f.Value(f.CONSTANT, location, literal=_CONSTANTS[node.value])
        if node_type is cst.Name or node_type is cst.Attribute:
            return name_value(dotted_name(node), scope, location, shadowed)
        if node_type is cst.Call:
            return self._call_value(node, scope, location, shadowed, depth)
        if node_type in _NUMBERS_AND_STRINGS:
            return f.Value(f.CONSTANT, location, literal=_literal(node.value))
        if node_type is cst.ConcatenatedString or node_type is cst.FormattedString:
            return f.Value(f.CONSTANT, location)
        if node_type is cst.UnaryOperation and isinstance(node.operator, cst.Minus):
            operand = self.value(node.expression, scope, shadowed, depth - 1)
            if operand.kind == f.CONSTANT and isinstance(operand.literal, (int, float, complex)):
                return f.Value(f.CONSTANT, location, literal=-operand.literal)
            return f.Value(f.OTHER, location)
        if node_type in _DISPLAYS:
            kind = {cst.Tuple: f.TUPLE, cst.List: f.LIST, cst.Set: f.SET}[type(node)]
            elements = tuple(
                f.Value(f.OTHER, self.location(element), literal="*")
                if isinstance(element, cst.StarredElement)
                else self.value(element.value, scope, shadowed, depth - 1)
                for element in node.elements
            )
            literal = None
            if all(element.kind == f.CONSTANT for element in elements):
                literal = tuple(element.literal for element in elements)
            return f.Value(kind, location, args=elements, literal=literal)
        if node_type is cst.GeneratorExp:
            return self._getattrs(node, scope, shadowed, depth) or f.Value(f.OTHER, location)
        if node_type is cst.ListComp:
            return f.Value(f.LIST, location)
        if node_type is cst.SetComp:
            return f.Value(f.SET, location)
        if node_type is cst.Dict and depth > 0:
            items = tuple(
                (key, self.value(element.value, scope, shadowed, depth - 1))
                for element in node.elements
                if isinstance(element, cst.DictElement)
                and isinstance(element.key, cst.SimpleString)
                and isinstance(key := _literal(element.key.value), str)
            )
            return f.Value(f.DICT, location, keywords=items)
        if node_type is cst.Dict or node_type is cst.DictComp:
            return f.Value(f.DICT, location)
        if node_type is cst.Lambda:
            if depth <= 0:
                return f.Value(f.LAMBDA, location)
            names = tuple(param.name.value for param, _ in all_parameters(node.params))
            body = self.value(node.body, scope, shadowed | frozenset(names), depth - 1)
            return f.Value(f.LAMBDA, location, args=(body,), literal=names)
        if node_type is cst.NamedExpr:
            return self.value(node.value, scope, shadowed, depth)
        if node_type is cst.BooleanOperation and isinstance(node.operator, cst.Or):
            # `items or []`: what the default path stores, but not what every run builds.
            return f.Value(f.OTHER, location, args=(self.value(node.right, scope, shadowed, depth - 1),), literal=f.FALLBACK)
        if node_type is cst.IfExp:
            # `[] if items is None else items`: either branch is stored on some path.
            branches = (node.body, node.orelse)
            return f.Value(
                f.OTHER, location, args=tuple(self.value(branch, scope, shadowed, depth - 1) for branch in branches), literal=f.FALLBACK
            )
        if node_type is cst.BinaryOperation:
            operands = (self.value(node.left, scope, shadowed, depth - 1), self.value(node.right, scope, shadowed, depth - 1))
            return f.Value(f.OTHER, location, args=operands, literal=f.ARITHMETIC)
        return f.Value(f.OTHER, location)

    def _getattrs(
        self, node: cst.GeneratorExp, scope: Scope, shadowed: frozenset[str], depth: int
    ) -> f.Value | None:
        """`getattr(self, name) for name in self.aux_fields`: attributes named by a
        list the class declares, as a base class's flatten reads them."""
        loop, element = node.for_in, node.elt
        if loop.inner_for_in is not None or loop.ifs or not isinstance(loop.target, cst.Name):
            return None
        if not (isinstance(element, cst.Call) and len(element.args) == 2 and dotted_name(element.func) == "getattr"):
            return None
        if scope.resolve_dotted("getattr").dotted != "builtins.getattr":
            return None
        name = element.args[1].value
        if not isinstance(name, cst.Name) or name.value != loop.target.value or element.args[0].star:
            return None
        # Two names, kept at any depth: a flatten builds this inside `tuple(...)` inside its return.
        owner = self.value(element.args[0].value, scope, shadowed, 0)
        names = self.value(loop.iter, scope, shadowed, 0)
        return f.Value(f.GETATTRS, self.location(node), args=(owner, names))

    def _call_value(
        self, node: cst.Call, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        callee = dotted_name(node.func)
        if callee is not None and callee.partition(".")[0] in shadowed:
            callee = None
        ref = scope.resolve_dotted(callee) if callee is not None else None
        if callee is None and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Call):
            # `super().__hash__()` -> "builtins.super().__hash__"
            inner = dotted_name(node.func.value.func)
            if inner is not None and not scope.resolve_dotted(inner).is_local:
                ref = f.Ref(f"{scope.resolve_dotted(inner).name}().{node.func.attr.value}")
        args, keywords = [], []
        for arg in node.args:
            if arg.star == "*":
                args.append(f.Value(f.OTHER, self.location(arg), literal="*"))
            elif arg.star == "**":
                keywords.append(("**", self.value(arg.value, scope, shadowed, depth - 1)))
            elif arg.keyword is not None:
                keywords.append((arg.keyword.value, self.value(arg.value, scope, shadowed, depth - 1)))
            else:
                args.append(self.value(arg.value, scope, shadowed, depth - 1))
        func = None
        if callee is None and isinstance(node.func, cst.Call):
            func = self.value(node.func, scope, shadowed, depth - 1)
        return f.Value(f.CALL, location, ref, tuple(args), tuple(keywords), func=func)

    def annotation_refs(self, node: cst.CSTNode, scope: Scope) -> tuple[f.Ref, ...]:
        """The classes an annotation names, through Optional, unions and strings."""
        if isinstance(node, cst.SimpleString):
            text = _literal(node.value)
            if not isinstance(text, str):
                return ()
            try:
                node = cst.parse_expression(text.strip())
            except cst.ParserSyntaxError:
                return ()
        dotted = dotted_name(node)
        if dotted is not None:
            return () if dotted == "None" else (scope.resolve_dotted(dotted),)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return self.annotation_refs(node.left, scope) + self.annotation_refs(node.right, scope)
        if isinstance(node, cst.Subscript):
            base = dotted_name(node.value)
            if base is None:
                return ()
            ref = scope.resolve_dotted(base)
            if ref.dotted in CLASS_VARIABLES:
                return (CLASS_VARIABLE,)
            if ref.dotted in STATIC_MARKERS:  # `Static[jax.Array]`: the marker, and what it holds
                inner = node.slice[0].slice
                return (ref, *(self.annotation_refs(inner.value, scope) if isinstance(inner, cst.Index) else ()))
            if ref.dotted not in TYPING_WRAPPERS:
                return (ref,)
            elements = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
            if ref.last == "Annotated":
                elements = elements[:1]
            refs: tuple[f.Ref, ...] = ()
            for element in elements:
                refs += self.annotation_refs(element, scope)
            return refs
        return ()

    # Helpers

    def location(self, node: cst.CSTNode) -> f.Location:
        line, column = self.positions.start(node)
        return f.Location(line, column)


def _comprehension_targets(for_in: cst.CompFor) -> frozenset[str]:
    names: set[str] = set()
    while for_in is not None:
        names.update(node.value for node in walk(for_in.target) if isinstance(node, cst.Name))
        for_in = for_in.inner_for_in
    return frozenset(names)


def _literal(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
