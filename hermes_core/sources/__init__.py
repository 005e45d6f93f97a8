"""Discovery sources: each a module implementing :class:`~hermes_core.sources._source.Source`.

Entry points (:mod:`.entry_points`), engine folders (:mod:`.directories`), general
plugins (:mod:`.general_plugins`) and Hermes Agent plugins (:mod:`.hermes`);
:mod:`hermes_core._discovery` asks them in their order of precedence.
"""
