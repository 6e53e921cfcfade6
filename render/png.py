"""PNG pictures: an SVG rasterised by CairoSVG (which draws through the system's cairo)."""

from __future__ import annotations


def svg_to_png(svg: str, scale: float = 1.5) -> bytes:
    """PNG bytes of the SVG document ``svg``, ``scale`` times its size in pixels.

    Raises :class:`RuntimeError` with a one-line reason if CairoSVG or the cairo library
    cannot be loaded.
    """
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: libcairo missing
        raise RuntimeError(f"PNG output needs CairoSVG and the cairo library ({exc})") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
