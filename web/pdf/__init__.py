"""The PDF machinery: HTML of a report or the overview, typeset by WeasyPrint.

- `images`: the drawings a PDF embeds, kept on `g` under URLs named by their content;
- `fetcher`: what WeasyPrint may load (our static files, those drawings, data: URLs), nothing else;
- `forms`: WeasyPrint patched to draw each SVG once into a PDF form and place it by reference;
- `typeset`: HTML in, an inline PDF response out.

WeasyPrint itself is imported only when a PDF is made (it takes a second to load).
"""
