"""Studies over many deals: the Dask runner with its SQLite results store
(:mod:`studies.runner`), the solve grid (:mod:`studies.study`), reports and plots
(:mod:`studies.report`), one deal under every ruling (:mod:`studies.variants`) and the
statistics they share (:mod:`studies.stats`)."""
