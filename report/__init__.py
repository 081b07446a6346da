"""Reports above the engine: the dispute summary and the SVG charts the page, the PDF and the batch share."""
