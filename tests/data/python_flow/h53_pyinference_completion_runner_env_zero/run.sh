#!/bin/bash
python app.py --port 8000
