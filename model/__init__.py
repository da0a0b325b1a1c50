"""The site's own small German language model, built here and never in the browser: its corpus, its
training and the files the engine runs (``make model`` runs the three steps in this order).

corpus            the German text it learns from, split into train and held-out text (model/DATA.md is
                  the data card); its sources:
  site_prose      the site's own prose: the pages, the lessons and the glossary, pinned as
                  site-prose.json.gz so that a new page does not change what ``make model`` trains on
  prose           a page's Markdown as the plain paragraphs a reader reads
  libreoffice_help  German running text from a Debian package of LibreOffice's help
train             trains the target and the draft distilled from it (with torch, in .venv-peer)
export            writes weights/ (the engine's float16 files and MANIFEST.json) and the loss curve
wordcheck         how much of a text is real German words (Debian's word list); export reports it

The engine (engine/) and the page package import nothing of it; it imports them, for the model's
configuration, the tokenizer and the lessons' text.
"""
