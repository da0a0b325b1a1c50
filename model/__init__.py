"""The site's own small German language model, as far as it is built outside the browser (issue 31).

corpus     the German text it learns from: the site's prose and a German help text from a Debian
           package, split into train and held-out text (model/DATA.md is the data card)
wordcheck  how much of a text is real German words (Debian's wngerman word list)

Nothing here is shipped to the browser; the engine (engine/) imports nothing of it.
"""
