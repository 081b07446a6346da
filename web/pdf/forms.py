"""WeasyPrint made to draw each SVG once: into a PDF form XObject, then placed by reference.

WeasyPrint redraws an SVG at every placement (Kozea/WeasyPrint #1978, open),
which made ten thousand tiles cost a minute. `DrawOnce` is the image cache of
one PDF (`write_pdf(cache=...)`); the SVGs this request registered
(`web.pdf.images`) change class as they are stored, to `DrawnOnceSVGImage` or,
for a step's table, `PlacedPiecesSVGImage`. tests/web/test_pdf.py checks the
tiles come out drawn, and once.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from web.pdf.images import PDF_IMAGES


class _DrawnOnce:
    """Mixed into WeasyPrint's SVGImage: the SVG is drawn once into a PDF form XObject and then
    placed by reference. Relies on WeasyPrint 70's drawing stream (`add_group`, `draw_x_object`,
    `_resources`) and image API (`get_intrinsic_size`, `draw`)."""

    forms: dict[int, tuple[str, float, float, Any]]
    sizes: dict[tuple[float, float], Any]

    def get_intrinsic_size(self, resolution: float, font_size: float) -> Any:
        """The image's own size, asked for at every layout of every placement: cached."""
        key = (resolution, font_size)
        if key not in self.sizes:
            self.sizes[key] = super().get_intrinsic_size(resolution, font_size)  # type: ignore[misc]
        return self.sizes[key]

    def place(self, stream: Any, x: float, y: float, width: float, height: float) -> None:
        """Draw the image into the box (x, y, width, height) of the stream's coordinates."""
        resources = stream._resources  # pages share theirs; a nested group gets its own forms
        form = self.forms.get(id(resources))
        if form is None:
            own_width, own_height, _ = self.get_intrinsic_size(1, 16)
            group = stream.add_group(-2, -2, own_width + 4, own_height + 4)  # room for an outline
            del group.extra["Group"]  # a plain form: no transparency group needed
            super().draw(group, own_width, own_height, None)  # type: ignore[misc]
            form = self.forms[id(resources)] = (group.id, own_width, own_height, resources)
        name, own_width, own_height, _ = form
        stream.push_state()  # q, cm, Do, Q: nothing in between reads the stream's matrix, so
        stream.set_matrix(width / own_width, 0, 0, height / own_height, x, y)  # not transform()
        stream.draw_x_object(name)
        stream.pop_state()

    def draw(self, stream: Any, width: float, height: float, style: Any) -> None:
        """As an <img> (or an SVG's <image>): the form, scaled to the box."""
        self.place(stream, 0, 0, width, height)


class _PlacedPieces(_DrawnOnce):
    """A step's table (`web.drawings.step_picture`): each piece placed as a form, rather than
    WeasyPrint walking an SVG of a hundred <image>s (0.5 ms each, measured). Falls back to that
    walk, the same drawing but slower, if WeasyPrint no longer exposes what this needs."""

    url: str
    units: tuple[float, float]
    placed: tuple[tuple[str, float, float, float, float], ...]
    loaded: dict[str, Any]

    def draw(self, stream: Any, width: float, height: float, style: Any) -> None:
        load = getattr(getattr(self, "_context", None), "get_image_from_uri", None)
        if load is None:
            pieces: list[Any] = [None]
        else:
            for path in {path for path, *_rest in self.placed} - self.loaded.keys():
                self.loaded[path] = load(url=urljoin(self.url, path))
            pieces = [self.loaded[path] for path, *_rest in self.placed]
        if not all(isinstance(piece, _DrawnOnce) for piece in pieces):
            super(_DrawnOnce, self).draw(stream, width, height, style)  # type: ignore[misc]
            return
        scale_x, scale_y = width / self.units[0], height / self.units[1]
        for piece, (_url, x, y, w, h) in zip(pieces, self.placed):
            piece.place(stream, x * scale_x, y * scale_y, w * scale_x, h * scale_y)


@lru_cache(maxsize=None)
def _svg_image_class(mixin: type) -> type:
    """WeasyPrint's SVGImage with a mixin (imported late: WeasyPrint loads for PDFs only)."""
    from weasyprint.images import SVGImage

    return type(mixin.__name__.lstrip("_") + "SVGImage", (mixin, SVGImage), {})


class DrawOnce(dict):  # type: ignore[type-arg]
    """WeasyPrint's image cache for one PDF (`write_pdf(cache=...)`, keyed by URL). The SVGs this
    request registered become `_DrawnOnce` or `_PlacedPieces` as they are stored: in place, as
    WeasyPrint goes on with the object it stores (a wrapper would miss each image's first use)."""

    def __init__(self, pictures: dict[str, Any]) -> None:
        super().__init__()
        self.pictures = pictures
        self.loaded: dict[str, Any] = {}

    def __setitem__(self, url: str, image: Any) -> None:
        from weasyprint.images import SVGImage

        if isinstance(image, SVGImage) and PDF_IMAGES in url:
            picture = self.pictures.get(PDF_IMAGES + url.split(PDF_IMAGES, 1)[1])
            image.__class__ = _svg_image_class(_PlacedPieces if picture is not None else _DrawnOnce)
            image.forms, image.sizes = {}, {}
            if picture is not None:
                image.url, (image.units, image.placed), image.loaded = url, picture, self.loaded
        super().__setitem__(url, image)
