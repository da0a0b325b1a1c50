"""One module per concept, named by its slug (``paged-attention`` → ``paged_attention``), and the data
tables beside them. Each keeps only its own idea: parameters, presets, computation, figure."""
