explain overlapp
